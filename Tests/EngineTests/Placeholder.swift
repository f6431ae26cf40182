// Placeholder until the module's tests land.
