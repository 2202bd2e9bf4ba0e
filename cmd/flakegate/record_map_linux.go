package main

import "syscall"

// mapPopulate maps a store's pages in one call rather than one fault at a
// time as the scan reads them.
const mapPopulate = syscall.MAP_POPULATE
