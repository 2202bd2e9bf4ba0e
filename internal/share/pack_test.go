package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// TestPackReusesCompressors: Pack hands out pooled compressors; each value
// packs to the bytes a fresh compress/flate writer gives (the reference
// below), whatever was packed before it and from however many goroutines.
func TestPackReusesCompressors(t *testing.T) {
	fresh := func(v any) string {
		raw, _ := json.Marshal(v)
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, flate.BestCompression)
		w.Write(raw)
		w.Close()
		return base64.RawURLEncoding.EncodeToString(b.Bytes())
	}
	values := []any{
		map[string]int{"v": 1},
		LedgerState{Version: 1},
		// a long, repetitive value leaves the compressor's window full
		map[string]string{"x": fmt.Sprintf("%0*d", 100000, 7)},
		[]string{"a", "b", "a", "b"},
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for k := range 40 {
				v := values[(g+k)%len(values)]
				got, err := Pack(v)
				if err != nil {
					t.Error(err)
					return
				}
				if want := fresh(v); got != want {
					t.Errorf("goroutine %d, pack %d of %T: %.40s…, a fresh writer gives %.40s…", g, k, v, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
