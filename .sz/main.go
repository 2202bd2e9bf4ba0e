package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"

	"github.com/andybalholm/brotli"
)

func main() {
	raw, _ := os.ReadFile(os.Args[1])
	var gz, br bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	bw.Write(raw)
	bw.Close()
	fmt.Printf("%s: %d raw, %d gzip -9, %d brotli 11\n", os.Args[1], len(raw), gz.Len(), br.Len())
}
