// A C target needs one source file; this module holds nothing but its module map.
int obscura_core_image_submodules_anchor;
