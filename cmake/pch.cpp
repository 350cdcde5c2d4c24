// The source of the mla-pch target (cmake/AddMLA.cmake), which exists only
// to build the precompiled headers the project's libraries share.
