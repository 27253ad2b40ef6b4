// The Swift toolchain's Testing module declares a cross-import overlay named `_Testing_CoreImage`
// for any module called CoreImage (on Apple platforms it lets tests attach images). A file that
// imports both Testing and CoreImage therefore asks for this module, and without it fails with
// "no such module '_Testing_CoreImage'". The drop-in CoreImage module depends on this empty one so
// that test targets importing both build on Linux; it adds nothing.
