package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// tracePkg, when set (-trace-pkg), lists the functions of that Go package
// (as the wasm name section spells it) compiled on first call.
var tracePkg string

// traceCategories are what -only trace records: the renderer's tasks,
// layout and paint, V8's wasm streaming, lazy (Liftoff) and top-tier
// (TurboFan) compilation, and the page's performance marks.
var traceCategories = []string{
	"devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "blink.user_timing",
	"loading", "toplevel", "v8", "v8.wasm", "disabled-by-default-v8.wasm.detailed",
}

// traceEvent is one Chrome trace event, as much of it as traceLoad reads.
type traceEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`  // µs
	Dur  float64         `json:"dur"` // µs, for ph "X"
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// traceLoad opens link in a fresh profile under Chrome's tracing and prints,
// from navigation start to the first figure, what the page's main thread
// spent its time on and how much wasm V8 compiled: lazily on the main
// thread (Liftoff, on first call) and in the background (TurboFan). With
// names (an app.wasm built without -s -w), it also splits the code compiled
// on first call by Go package.
func traceLoad(profile, name, link, sel string, names map[int]string) error {
	ctx, cancel, err := webtest.NewBrowser(context.Background(), profile)
	if err != nil {
		return err
	}
	defer cancel()
	var (
		mu     sync.Mutex
		events []traceEvent
		done   = make(chan struct{})
	)
	err = chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range ev.Value {
				var e traceEvent
				if b, err := json.Marshal(v); err == nil && json.Unmarshal(b, &e) == nil {
					events = append(events, e)
				}
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(done)
		}
	})
	if err != nil {
		return err
	}
	start := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: traceCategories}})
		return err
	})
	if err := chromedp.Do(ctx, inject(markJS(map[string]string{"figure": sel})), start, chromedp.Navigate(link)); err != nil {
		return err
	}
	ms, err := mark(ctx, "figure", 3*time.Minute)
	if err != nil {
		return err
	}
	end := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, tracing.End, cdp.Empty{})
		return err
	})
	if err := chromedp.Do(ctx, end); err != nil {
		return err
	}
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		return fmt.Errorf("tracing: no tracingComplete after 3 minutes")
	}
	mu.Lock()
	defer mu.Unlock()
	fmt.Printf("  %s link, cold: figure %.0f ms\n", name, ms)
	return printTrace(events, names)
}

// printTrace summarises the events of the page's main thread from its
// navigation start to its fg-figure mark (whose startTime, in ms from
// navigation start, places the start on the trace's clock).
func printTrace(events []traceEvent, names map[int]string) error {
	var from, to float64
	var main [2]int
	for _, e := range events {
		if e.Name != "fg-figure" {
			continue
		}
		var a struct {
			Data struct {
				StartTime float64 `json:"startTime"`
			} `json:"data"`
		}
		if err := json.Unmarshal(e.Args, &a); err != nil {
			return fmt.Errorf("tracing: fg-figure mark: %v", err)
		}
		to, from, main = e.Ts, e.Ts-1000*a.Data.StartTime, [2]int{e.Pid, e.Tid}
	}
	if to == 0 {
		return fmt.Errorf("tracing: no fg-figure mark in the trace")
	}
	in := func(e traceEvent) bool { return e.Ph == "X" && e.Ts >= from && e.Ts+e.Dur <= to }

	// Self time of the main thread's events: complete events nest by time.
	var mainEvents []traceEvent
	for _, e := range events {
		if in(e) && [2]int{e.Pid, e.Tid} == main {
			mainEvents = append(mainEvents, e)
		}
	}
	sort.Slice(mainEvents, func(i, j int) bool {
		if mainEvents[i].Ts != mainEvents[j].Ts {
			return mainEvents[i].Ts < mainEvents[j].Ts
		}
		return mainEvents[i].Dur > mainEvents[j].Dur
	})
	self := map[string]float64{}
	var busy float64
	walkNested(mainEvents, func(e traceEvent, parent *traceEvent) {
		if parent != nil {
			self[parent.Name] -= e.Dur
		} else {
			busy += e.Dur
		}
		self[e.Name] += e.Dur
	})
	fmt.Printf("    main thread busy %.0f ms of %.0f ms; self time:\n", busy/1000, (to-from)/1000)
	printTop(self, 12, "      %7.1f ms  %s\n", 1000)

	var lazyN, lazyBytes int
	byPkg, byFunc := map[string]float64{}, map[string]float64{}
	var lazyMS, tfMS float64
	var tfN int
	for _, e := range events {
		if !in(e) {
			continue
		}
		switch {
		case e.Name == "wasm.CompileBaseline" && [2]int{e.Pid, e.Tid} == main:
			var a struct {
				BodySize  int `json:"bodySize"`
				FuncIndex int `json:"funcIndex"`
			}
			json.Unmarshal(e.Args, &a)
			lazyN, lazyBytes = lazyN+1, lazyBytes+a.BodySize
			if names != nil {
				name := names[a.FuncIndex]
				byPkg[goPackage(name)] += float64(a.BodySize)
				if tracePkg != "" && goPackage(name) == tracePkg {
					byFunc[name] += float64(a.BodySize)
				}
			}
		case e.Name == "wasm.CompileLazy" && [2]int{e.Pid, e.Tid} == main:
			lazyMS += e.Dur
		case e.Name == "wasm.TopTierCompilation" && e.Pid == main[0]:
			tfN, tfMS = tfN+1, tfMS+e.Dur
		}
	}
	fmt.Printf("    compiled on first call (main thread): %d functions, %s of wasm, %.0f ms\n", lazyN, mb(int64(lazyBytes)), lazyMS/1000)
	printTop(byPkg, 12, "      %7.0f KB  %s\n", 1000)
	if tracePkg != "" {
		fmt.Printf("    %s, by function:\n", tracePkg)
		printTop(byFunc, 40, "      %7.0f B  %s\n", 1)
	}
	fmt.Printf("    optimized in the background (TurboFan): %d functions, %.0f ms of wall time\n", tfN, tfMS/1000)
	printPhases(events, mainEvents, main, from, to, names)
	return nil
}

// loadPhases are the page's own performance marks, in the order a load
// passes them (app.js, site/main.go, the component's first Render and its
// OnNav); the bench's fg-figure mark ends the last phase.
var loadPhases = []string{"wasm-ready", "go-main", "render", "nav"}

// printPhases splits the main thread's time between the page's marks:
// for each phase, its wall time, how long the main thread was busy, how
// much of that was compiling wasm on first call and how many bytes of it,
// and the busiest work by self time. Marks missing from the trace (a page
// without a component) fold their phase into the next.
func printPhases(events, mainEvents []traceEvent, main [2]int, from, to float64, names map[int]string) {
	at := map[string]float64{}
	for _, e := range events {
		if [2]int{e.Pid, e.Tid} == main && e.Ts >= from && e.Ts <= to && slices.Contains(loadPhases, e.Name) {
			if _, seen := at[e.Name]; !seen {
				at[e.Name] = e.Ts
			}
		}
	}
	bounds, labels := []float64{from}, []string{"navigation"}
	for _, name := range loadPhases {
		if ts, ok := at[name]; ok && ts > bounds[len(bounds)-1] {
			bounds, labels = append(bounds, ts), append(labels, name)
		}
	}
	bounds, labels = append(bounds, to), append(labels, "figure")
	phase := func(ts float64) int {
		i := sort.SearchFloat64s(bounds, ts)
		if i > 0 && (i == len(bounds) || bounds[i] > ts) {
			i--
		}
		return min(i, len(bounds)-2)
	}
	n := len(bounds) - 1
	busy, compileMS, compileB := make([]float64, n), make([]float64, n), make([]float64, n)
	self, pkgs := make([]map[string]float64, n), make([]map[string]float64, n)
	for i := range self {
		self[i], pkgs[i] = map[string]float64{}, map[string]float64{}
	}
	walkNested(mainEvents, func(e traceEvent, parent *traceEvent) {
		i := phase(e.Ts)
		if parent != nil {
			self[phase(parent.Ts)][parent.Name] -= e.Dur
		} else {
			busy[i] += e.Dur
		}
		self[i][e.Name] += e.Dur
		switch e.Name {
		case "wasm.CompileLazy":
			compileMS[i] += e.Dur
		case "wasm.CompileBaseline":
			var a struct {
				BodySize  int `json:"bodySize"`
				FuncIndex int `json:"funcIndex"`
			}
			json.Unmarshal(e.Args, &a)
			compileB[i] += float64(a.BodySize)
			if names != nil {
				pkgs[i][goPackage(names[a.FuncIndex])] += float64(a.BodySize)
			}
		}
	})
	fmt.Printf("    by phase (wall, main thread busy, compiling on first call):\n")
	for i := range n {
		fmt.Printf("      %-10s → %-10s %5.0f ms, busy %5.0f ms, compiling %4.0f ms (%3.0f KB)\n",
			labels[i], labels[i+1], (bounds[i+1]-bounds[i])/1000, busy[i]/1000, compileMS[i]/1000, compileB[i]/1000)
		printTop(self[i], map[bool]int{true: 14, false: 4}[i == 0], "          %6.1f ms  %s\n", 1000)
		if names != nil {
			printTop(pkgs[i], 6, "          %6.0f KB  %s\n", 1000)
		}
	}
}

// walkNested calls fn with each of one thread's complete events, sorted by
// start (longest first on ties), and the innermost event enclosing it (nil
// at the top level): complete events on a thread nest by time.
func walkNested(events []traceEvent, fn func(e traceEvent, parent *traceEvent)) {
	var stack []traceEvent
	for _, e := range events {
		for len(stack) > 0 && stack[len(stack)-1].Ts+stack[len(stack)-1].Dur <= e.Ts {
			stack = stack[:len(stack)-1]
		}
		var parent *traceEvent
		if len(stack) > 0 {
			parent = &stack[len(stack)-1]
		}
		fn(e, parent)
		stack = append(stack, e)
	}
}

// wasmFuncNames reads the function names of a wasm module's "name" custom
// section (absent from a build linked with -s -w); nil when there is none.
func wasmFuncNames(b []byte) map[int]string {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil
	}
	var names map[int]string
	sections(b[8:], func(id byte, body []byte) {
		if id != 0 {
			return
		}
		n, k := uleb(body, 0)
		if k+int(n) > len(body) || string(body[k:k+int(n)]) != "name" {
			return
		}
		sections(body[k+int(n):], func(id byte, sub []byte) {
			if id != 1 { // function names
				return
			}
			names = map[int]string{}
			count, k := uleb(sub, 0)
			for ; count > 0 && k < len(sub); count-- {
				var idx, l uint64
				idx, k = uleb(sub, k)
				l, k = uleb(sub, k)
				if k+int(l) > len(sub) {
					return
				}
				names[int(idx)] = string(sub[k : k+int(l)])
				k += int(l)
			}
		})
	})
	return names
}

// sections calls fn with the id and body of each (id, LEB128 size, body)
// entry of b, the layout of a module's sections and of the name section's
// subsections; it stops at the first entry that overruns b.
func sections(b []byte, fn func(id byte, body []byte)) {
	for i := 0; i < len(b); {
		size, j := uleb(b, i+1)
		end := j + int(size)
		if end > len(b) || end < j {
			return
		}
		fn(b[i], b[j:end])
		i = end
	}
}

// uleb decodes the unsigned LEB128 number at b[i:] and returns it and the
// index after it; past the end of b it returns an index beyond len(b).
func uleb(b []byte, i int) (uint64, int) {
	var v uint64
	for s := uint(0); i < len(b) && s < 64; s += 7 {
		c := b[i]
		i++
		v |= uint64(c&0x7f) << s
		if c < 0x80 {
			return v, i
		}
	}
	return 0, len(b) + 1
}

// goPackage is the package part of a Go function's wasm name, in which the
// linker writes '_' for the '/' and '.' of import paths:
// "github.com_x_y_pkg.(*T).M" → "github.com_x_y_pkg", "runtime.mallocgc" → "runtime".
func goPackage(name string) string {
	skip := 0
	if strings.HasPrefix(name, "github.com_") {
		skip = len("github.com_")
	}
	if i := strings.Index(name[skip:], "."); i >= 0 {
		return name[:skip+i]
	}
	return name
}
