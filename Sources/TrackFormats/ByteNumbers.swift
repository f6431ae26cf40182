import RunusCore

/// Number and time parsing straight from ASCII bytes (no String in the hot path).
enum ByteNumbers {
    /// Powers of ten exactly representable as Double (10^0 ... 10^22).
    static let exactPowers: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }

    /// Parses a decimal number (`-12.5`, `3e-2`, `+7`) in `bytes[start..<end]`, leading and
    /// trailing ASCII spaces allowed; `nil` when it is not one.
    ///
    /// Up to 19 significant digits are used exactly; further digits are ignored (relative error
    /// < 1e-18, far below any quantity a track file records). With ≤ 15 digits and a power of
    /// ten ≤ 22 the result is correctly rounded (one exact division); otherwise it is within a
    /// few ulps.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start, e = end
        while i < e, isSpace(bytes[i]) { i += 1 }
        while e > i, isSpace(bytes[e - 1]) { e -= 1 }
        guard i < e else { return nil }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if bytes[i] == UInt8(ascii: "+") { i += 1 }
        var mantissa: UInt64 = 0, digits = 0, scale = 0, sawDigit = false
        while i < e, bytes[i] &- 48 < 10 {
            sawDigit = true
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48); if mantissa > 0 { digits += 1 } } else { scale += 1 }
            i += 1
        }
        if i < e, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < e, bytes[i] &- 48 < 10 {
                sawDigit = true
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48); scale -= 1; if mantissa > 0 { digits += 1 } }
                i += 1
            }
        }
        guard sawDigit else {
            // NaN / inf spelled out are not track values.
            return nil
        }
        if i < e, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < e, bytes[i] == UInt8(ascii: "-") { expNegative = true; i += 1 } else if i < e, bytes[i] == UInt8(ascii: "+") { i += 1 }
            var exp = 0, expDigits = 0
            while i < e, bytes[i] &- 48 < 10 { if exp < 10000 { exp = exp * 10 + Int(bytes[i] &- 48) }; i += 1; expDigits += 1 }
            guard expDigits > 0 else { return nil }
            scale += expNegative ? -exp : exp
        }
        guard i == e else { return nil }
        var value = Double(mantissa)
        if scale < 0 {
            var s = -scale
            while s > 22 { value /= 1e22; s -= 22 }
            value /= exactPowers[s]
        } else if scale > 0 {
            var s = scale
            while s > 22 { value *= 1e22; s -= 22 }
            value *= exactPowers[s]
        }
        return negative ? -value : value
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }

    /// Parses an ISO 8601 / RFC 3339 instant `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM|±HHMM]` (a
    /// space instead of `T` accepted; no zone means UTC) into Unix seconds; `nil` otherwise.
    static func isoInstant(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> EpochSeconds? {
        var i = start, e = end
        while i < e, isSpace(bytes[i]) { i += 1 }
        while e > i, isSpace(bytes[e - 1]) { e -= 1 }
        func number(_ count: Int) -> Int? {
            guard i + count <= e else { return nil }
            var v = 0
            for k in 0..<count {
                let d = bytes[i + k] &- 48
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            i += count
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < e, bytes[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
              let day = number(2) else { return nil }
        guard i < e, bytes[i] == UInt8(ascii: "T") || bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "t") else { return nil }
        i += 1
        guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
              let second = number(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute < 60, second <= 60 else { return nil }
        var fraction = 0.0
        if i < e, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 0.1, any = false
            while i < e, bytes[i] &- 48 < 10 { fraction += Double(bytes[i] &- 48) * scale; scale /= 10; i += 1; any = true }
            guard any else { return nil }
        }
        var offset = 0
        if i < e {
            if bytes[i] == UInt8(ascii: "Z") || bytes[i] == UInt8(ascii: "z") {
                i += 1
            } else if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                let sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let oh = number(2) else { return nil }
                _ = expect(UInt8(ascii: ":"))
                let om = number(2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard i == e else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}
