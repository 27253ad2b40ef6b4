// Intentionally empty: `CIFilterBuiltins` is a submodule name only (see module.modulemap).
