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

// readInputs adds every input's runs in order: reports parsed side by
// side (readSideBySide), a store's runs as they were recorded.
func readInputs(e *env, inputs []historyInput, parse func(i int) (*history.Parsed, error), add func(*history.Parsed) error) error {
	for i := 0; i < len(inputs); {
		if inputs[i].store {
			if err := readStore(e, inputs[i].name, add); err != nil {
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
		if err := readSideBySide(e, j-i, func(k int) (*history.Parsed, error) { return parse(from + k) }, add); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// readStore gives add each recording of the store at path, under a shared
// lock (an append in progress is waited for, never read half-written).
func readStore(e *env, path string, add func(*history.Parsed) error) error {
	f, err := openStore(path, false)
	if err != nil {
		return err
	}
	defer f.Close()
	return store.Each(f, path, func(en store.Entry) error {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		return add(en.Report)
	})
}
