// The Swift toolchain's Testing module declares a cross-import overlay named `_Testing_CoreGraphics` for any module
// called CoreGraphics (on Apple platforms it lets tests attach images). A file that imports both Testing and
// CoreGraphics therefore asks for this module, and without it fails with "no such module '_Testing_CoreGraphics'".
// The drop-in CoreGraphics module depends on this empty one so that test targets importing both build on Linux; it
// adds nothing.
