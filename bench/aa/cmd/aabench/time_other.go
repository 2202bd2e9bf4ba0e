//go:build !unix

package main

import "fmt"

func timeCmd([]string) error {
	return fmt.Errorf("aabench time needs a Unix system's resource usage")
}
