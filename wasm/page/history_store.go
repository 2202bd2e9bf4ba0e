package page

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/store"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A history store (flakegate record, docs/STORE.md) opens on the history
// page two ways: dropped like the reports (the drop zone knows it by its
// header), or linked, /history?store=URL, which the browser fetches. A
// store link is its own share link: it opens on the same runs.

// MaxStoreBytes is the largest store the page reads, dropped or fetched.
// A store keeps a result in about a bit, so this is more than the
// history's bounded read (history.MaxReadResults results) ever needs.
const MaxStoreBytes = 16 << 20

// storeTooLarge is the error of a store over MaxStoreBytes.
func storeTooLarge(name string) error {
	return &core.Error{Kind: core.TooLarge, File: name,
		Msg: fmt.Sprintf("the store is over %d MiB, the most this page reads: run the CLI (flakegate history %s), which has no such limit", MaxStoreBytes>>20, path.Base(name))}
}

// readStoreRuns adds a store's recorded runs to h as flakegate history
// reads them, checking bound after each recording.
func readStoreRuns(h *history.History, name string, data []byte, bound func(name string) error) error {
	if len(data) > MaxStoreBytes {
		return storeTooLarge(name)
	}
	before := h.Runs()
	err := store.Each(bytes.NewReader(data), name, func(e store.Entry) error {
		if err := h.AddParsed(e.Report); err != nil {
			return core.WithFile(err, name)
		}
		return bound(name)
	})
	if err != nil {
		return err
	}
	if h.Runs() == before {
		return &core.Error{Kind: core.Unusable, File: name, Msg: "the store holds no recorded run"}
	}
	return nil
}

// storesReplay gives the runs of stores again, in order: the picture's
// source for a history read from them.
func storesReplay(names []string, stores [][]byte) runReplay {
	return func(add func(history.RunMeta, []history.TestResult) error) error {
		for i, data := range stores {
			err := store.Each(bytes.NewReader(data), names[i], func(e store.Entry) error {
				metas, runs := e.Report.Runs()
				for k, m := range metas {
					if err := add(m, runs[k]); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// storeLinkKey is the state text's key of a store's address.
const storeLinkKey = "store"

// storeLink is the state text of a link to the store at addr.
func storeLink(addr string) string { return storeLinkKey + "=" + url.QueryEscape(addr) }

// checkStoreURL says what is wrong with a store's address, or nil: it is
// an absolute http or https URL, or a path on this site ("/data/runs.fgs").
func checkStoreURL(addr string) error {
	u, err := url.Parse(addr)
	switch {
	case err != nil:
	case (u.Scheme == "https" || u.Scheme == "http") && u.Host != "":
		return nil
	case u.Scheme == "" && u.Host == "" && strings.HasPrefix(addr, "/") && !strings.HasPrefix(addr, "//"):
		return nil
	}
	return &core.Error{Kind: core.Invalid, Field: storeLinkKey, Msg: "the link's store= is not an http or https address, nor a path on this site: " + strconv.Quote(addr)}
}

// storeName is what the page calls a linked store: its file's name.
func storeName(addr string) string {
	if u, err := url.Parse(addr); err == nil && path.Base(u.Path) != "/" && path.Base(u.Path) != "." {
		return path.Base(u.Path)
	}
	return addr
}

// fetchStore fetches the store at addr with the browser's fetch, reading
// at most MaxStoreBytes (a larger one is refused by its Content-Length,
// else when the bytes pass the limit). Call it off the UI goroutine.
func fetchStore(addr string) ([]byte, error) {
	if !app.IsClient {
		return nil, errors.New("no browser to fetch " + addr)
	}
	resp, err := await(app.Window().Call("fetch", addr))
	if err != nil {
		return nil, &core.Error{Kind: core.Unusable, File: addr, Msg: "could not fetch the store (" + err.Error() + "); its server must let this site read it (CORS)"}
	}
	if !resp.Get("ok").Bool() {
		return nil, &core.Error{Kind: core.Unusable, File: addr, Msg: "could not fetch the store: the server answered " + strconv.Itoa(resp.Get("status").Int()) + " " + resp.Get("statusText").String()}
	}
	if n, err := strconv.ParseInt(resp.Get("headers").Call("get", "Content-Length").String(), 10, 64); err == nil && n > MaxStoreBytes {
		return nil, storeTooLarge(addr)
	}
	body := resp.Get("body")
	if !body.Truthy() {
		return nil, &core.Error{Kind: core.Unusable, File: addr, Msg: "could not fetch the store: the answer has no body"}
	}
	rd := body.Call("getReader")
	var out []byte
	for {
		chunk, err := await(rd.Call("read"))
		if err != nil {
			return nil, &core.Error{Kind: core.Unusable, File: addr, Msg: "could not fetch the store: " + err.Error()}
		}
		if chunk.Get("done").Bool() {
			return out, nil
		}
		v := chunk.Get("value")
		n := v.Get("length").Int()
		if len(out)+n > MaxStoreBytes {
			rd.Call("cancel")
			return nil, storeTooLarge(addr)
		}
		b := make([]byte, n)
		app.CopyBytesToGo(b, v)
		out = append(out, b...)
	}
}

// loadStoreLink shows the store a link names: fetched off the UI
// goroutine, then read as a dropped store is.
func (h *History) loadStoreLink(ctx app.Context, addr string) {
	h.gen++
	gen := h.gen
	h.linkErr, h.err, h.runs, h.replay, h.storeAddr = nil, nil, nil, nil, addr
	h.show(nil)
	if err := checkStoreURL(addr); err != nil {
		h.linkErr = err
		return
	}
	h.busy, h.name = true, storeName(addr)
	ctx.Async(func() {
		data, err := fetchStore(addr)
		var hist *history.History
		var replay runReplay
		if err == nil && !store.IsStore(data) {
			err = &core.Error{Kind: core.Invalid, File: addr, Msg: "not a flakegate store (it does not begin with " + strconv.Quote(store.Magic) + "): a store= link names a file flakegate record wrote"}
		}
		if err == nil {
			hist, replay, err = readHistoryFiles([]historyFile{{name: addr, read: func(int64) ([]byte, error) { return data, nil }}}, "")
		}
		ctx.Dispatch(func(ctx app.Context) {
			if h.gen != gen {
				return
			}
			h.busy, h.replay = false, replay
			h.compute(hist, err)
		})
	})
}

// storeAddrOf is the store address of a state text, "" when it has none.
func storeAddrOf(frag string) string {
	if !strings.Contains(frag, storeLinkKey+"=") {
		return ""
	}
	return applyFragment([]field{{Key: storeLinkKey}}, frag)[storeLinkKey]
}
