//go:build unix && !linux

package main

// mapPopulate: other systems fault a mapped store's pages in as read.
const mapPopulate = 0
