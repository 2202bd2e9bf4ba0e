package main

import (
	"io"
	"os"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/store"
)

// isStoreFile reports whether the file at path begins as a history store
// does.
func isStoreFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(store.Magic))
	n, _ := io.ReadFull(f, head)
	return store.IsStore(head[:n])
}

// readInputs adds every input's runs to h in order: reports parsed side
// by side (readSideBySide), a store's runs as they were recorded.
func readInputs(e *env, inputs []historyInput, parse func(i int) (*history.Parsed, error), h *history.History) error {
	for i := 0; i < len(inputs); {
		if inputs[i].store {
			if err := readStore(e, inputs[i].name, h); err != nil {
				return err
			}
			i++
			continue
		}
		j := i
		for j < len(inputs) && !inputs[j].store {
			j++
		}
		from := i
		if err := readSideBySide(e, j-i, func(k int) (*history.Parsed, error) { return parse(from + k) }, h.AddParsed); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// readStore adds each recording of the store at path to h, under a
// shared lock (an append in progress is waited for, never read
// half-written).
func readStore(e *env, path string, h *history.History) error {
	f, err := openStore(path, false)
	if err != nil {
		return err
	}
	defer f.Close()
	return store.AddHistory(h, f, path, e.ctx.Err)
}
