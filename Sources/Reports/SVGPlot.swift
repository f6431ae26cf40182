/// A small SVG plotting surface: a frame with labelled axes, ticks and grid, and marks drawn in
/// data coordinates. Output is inline SVG (no scripts, no external references); text is escaped.
/// Colours are the Okabe–Ito palette, safe for the common colour-vision deficiencies
/// (docs/decisions/0707-report-rendering.md).
struct SVGPlot {
    enum Palette {
        static let blue = "#0072B2", vermillion = "#D55E00", green = "#009E73", orange = "#E69F00"
        static let sky = "#56B4E9", purple = "#CC79A7", yellow = "#F0E442", black = "#000000"
        static let grid = "#e3e3e3", axis = "#444444", reference = "#888888", band = "#f0e442"
        /// Model colours in report order (candidate, reference), with a dash pattern each so that
        /// the two stay apart in grey print too.
        static let models = [blue, vermillion]
        static let modelDash = ["", "6 3"]
    }

    let width: Double, height: Double
    let left: Double, right = 18.0, top = 34.0, bottom: Double
    let x: ClosedRange<Double>, y: ClosedRange<Double>
    private(set) var body = ""

    init(width: Double = 460, height: Double = 340, left: Double = 64, bottom: Double = 50, x: ClosedRange<Double>, y: ClosedRange<Double>) {
        self.width = width; self.height = height; self.left = left; self.bottom = bottom; self.x = x; self.y = y
    }

    var plotWidth: Double { width - left - right }
    var plotHeight: Double { height - top - bottom }

    func px(_ v: Double) -> Double { left + (v - x.lowerBound) / (x.upperBound - x.lowerBound) * plotWidth }
    func py(_ v: Double) -> Double { top + (1 - (v - y.lowerBound) / (y.upperBound - y.lowerBound)) * plotHeight }

    static func f(_ v: Double) -> String { ReportFormat.number(v, digits: 1).replacingMinus() }

    /// Title, axes with ticks at `xTicks`/`yTicks` (labels formatted by `format`), grid lines, axis titles.
    mutating func frame(title: String, xLabel: String, yLabel: String, xTicks: [Double], yTicks: [Double],
                        format: @escaping (Double) -> String = { ReportFormat.number($0, digits: 1) }, yFormat: ((Double) -> String)? = nil) {
        let f = Self.f
        body += "<text x=\"\(f(left))\" y=\"20\" class=\"t\">\(HTMLText.escape(title))</text>"
        for t in xTicks {
            body += "<line x1=\"\(f(px(t)))\" y1=\"\(f(top))\" x2=\"\(f(px(t)))\" y2=\"\(f(top + plotHeight))\" stroke=\"\(Palette.grid)\"/>"
            body += "<text x=\"\(f(px(t)))\" y=\"\(f(top + plotHeight + 16))\" text-anchor=\"middle\" class=\"k\">\(HTMLText.escape(format(t)))</text>"
        }
        for t in yTicks {
            body += "<line x1=\"\(f(left))\" y1=\"\(f(py(t)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(py(t)))\" stroke=\"\(Palette.grid)\"/>"
            body += "<text x=\"\(f(left - 6))\" y=\"\(f(py(t) + 4))\" text-anchor=\"end\" class=\"k\">\(HTMLText.escape((yFormat ?? format)(t)))</text>"
        }
        body += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" fill=\"none\" stroke=\"\(Palette.axis)\"/>"
        body += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 10))\" text-anchor=\"middle\" class=\"a\">\(HTMLText.escape(xLabel))</text>"
        let cy = top + plotHeight / 2
        body += "<text x=\"16\" y=\"\(f(cy))\" transform=\"rotate(-90 16 \(f(cy)))\" text-anchor=\"middle\" class=\"a\">\(HTMLText.escape(yLabel))</text>"
    }

    /// A polyline through data points.
    mutating func line(_ points: [(Double, Double)], colour: String, dash: String = "", width: Double = 2) {
        guard !points.isEmpty else { return }
        let coords = points.map { "\(Self.f(px($0.0))),\(Self.f(py($0.1)))" }.joined(separator: " ")
        body += "<polyline points=\"\(coords)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(Self.f(width))\""
            + (dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"") + " stroke-linejoin=\"round\"/>"
    }

    /// A filled rectangle between data corners.
    mutating func rect(x0: Double, y0: Double, x1: Double, y1: Double, fill: String, opacity: Double = 1, stroke: String? = nil) {
        let (a, b) = (px(min(x0, x1)), px(max(x0, x1)))
        let (c, d) = (py(max(y0, y1)), py(min(y0, y1)))
        body += "<rect x=\"\(Self.f(a))\" y=\"\(Self.f(c))\" width=\"\(Self.f(max(b - a, 0)))\" height=\"\(Self.f(max(d - c, 0)))\" fill=\"\(fill)\""
            + (opacity < 1 ? " fill-opacity=\"\(ReportFormat.number(opacity, digits: 2))\"" : "")
            + (stroke.map { " stroke=\"\($0)\" stroke-width=\"0.6\"" } ?? "") + "/>"
    }

    /// A marker (circle, square or diamond) with an optional vertical whisker in data units.
    mutating func marker(x vx: Double, y vy: Double, shape: Int, colour: String, whisker: (Double, Double)? = nil, dx: Double = 0) {
        let cx = px(vx) + dx, cy = py(vy), f = Self.f
        if let (lo, hi) = whisker {
            body += "<line x1=\"\(f(cx))\" y1=\"\(f(py(lo)))\" x2=\"\(f(cx))\" y2=\"\(f(py(hi)))\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>"
            for v in [lo, hi] {
                body += "<line x1=\"\(f(cx - 3))\" y1=\"\(f(py(v)))\" x2=\"\(f(cx + 3))\" y2=\"\(f(py(v)))\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>"
            }
        }
        switch shape % 3 {
        case 0: body += "<circle cx=\"\(f(cx))\" cy=\"\(f(cy))\" r=\"4\" fill=\"\(colour)\" stroke=\"#fff\"/>"
        case 1: body += "<rect x=\"\(f(cx - 4))\" y=\"\(f(cy - 4))\" width=\"8\" height=\"8\" fill=\"\(colour)\" stroke=\"#fff\"/>"
        default: body += "<path d=\"M\(f(cx)) \(f(cy - 5))L\(f(cx + 5)) \(f(cy))L\(f(cx)) \(f(cy + 5))L\(f(cx - 5)) \(f(cy))Z\" fill=\"\(colour)\" stroke=\"#fff\"/>"
        }
    }

    /// Free text at a data point (`anchor`: start, middle or end).
    mutating func text(_ s: String, x vx: Double, y vy: Double, anchor: String = "start", dx: Double = 0, dy: Double = 0, cls: String = "k") {
        body += "<text x=\"\(Self.f(px(vx) + dx))\" y=\"\(Self.f(py(vy) + dy))\" text-anchor=\"\(anchor)\" class=\"\(cls)\">\(HTMLText.escape(s))</text>"
    }

    /// A legend box in the plot's corner: each item a line sample (with dash) or a filled square.
    mutating func legend(_ items: [(label: String, colour: String, dash: String, filled: Bool)], corner: Corner) {
        let rowHeight = 17.0, boxWidth = 12 + 26 + Double(items.map(\.label.count).max() ?? 0) * 6.6
        let boxHeight = Double(items.count) * rowHeight + 8
        let x0 = corner.isRight ? left + plotWidth - boxWidth - 8 : left + 8
        let y0 = corner.isBottom ? top + plotHeight - boxHeight - 8 : top + 8
        let f = Self.f
        body += "<rect x=\"\(f(x0))\" y=\"\(f(y0))\" width=\"\(f(boxWidth))\" height=\"\(f(boxHeight))\" fill=\"#fff\" fill-opacity=\"0.9\" stroke=\"#bbb\"/>"
        for (i, item) in items.enumerated() {
            let yy = y0 + 4 + rowHeight * (Double(i) + 0.5)
            if item.colour.isEmpty {
                // Text only: the marks are explained in the label itself.
            } else if item.filled {
                body += "<rect x=\"\(f(x0 + 8))\" y=\"\(f(yy - 6))\" width=\"18\" height=\"12\" fill=\"\(item.colour)\"/>"
            } else {
                body += "<line x1=\"\(f(x0 + 6))\" y1=\"\(f(yy))\" x2=\"\(f(x0 + 28))\" y2=\"\(f(yy))\" stroke=\"\(item.colour)\" stroke-width=\"2.5\""
                    + (item.dash.isEmpty ? "" : " stroke-dasharray=\"\(item.dash)\"") + "/>"
            }
            let textX = item.colour.isEmpty ? x0 + 8 : x0 + 34
            body += "<text x=\"\(f(textX))\" y=\"\(f(yy + 4))\" class=\"k\">\(HTMLText.escape(item.label))</text>"
        }
    }

    enum Corner {
        case topLeft, topRight, bottomLeft, bottomRight
        var isRight: Bool { self == .topRight || self == .bottomRight }
        var isBottom: Bool { self == .bottomLeft || self == .bottomRight }
    }

    /// The finished `<svg>` element with an accessible title.
    func svg(label: String) -> String {
        "<svg width=\"\(Self.f(width))\" height=\"\(Self.f(height))\" viewBox=\"0 0 \(Self.f(width)) \(Self.f(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\">"
            + body + "</svg>"
    }
}

extension String {
    /// SVG coordinates need an ASCII minus.
    func replacingMinus() -> String { replacing("−", with: "-") }
}

/// Escaping for HTML text and attribute values.
enum HTMLText {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }
}
