// Command wasmsize says what a Go WebAssembly module is made of: its
// code by package and by function (from the wasm name section, so build
// without -ldflags="-s -w"), and its data section split by what Go's
// linker put there (the function tables, type data, read-only data such
// as strings, initialised variables), read from the runtime's module
// data.
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/app.wasm ./wasm
//	go run ./bench/wasmsize /tmp/app.wasm              # sections, data, top 20 packages
//	go run ./bench/wasmsize -top 0 -pkg encoding/json /tmp/app.wasm
//	go run ./bench/wasmsize /tmp/before.wasm /tmp/after.wasm   # per-package change
//
// Sizes are bytes of the module: a function's body as stored in the code
// section (its locals and instructions), a data range's bytes in the
// data section's segments (Go leaves runs of zeros out).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"

	"github.com/flakegate/flakegate/internal/static"
)

func main() {
	top := flag.Int("top", 20, "list this many packages by code size (0: none)")
	pkg := flag.String("pkg", "", "list this package's functions by size")
	funcs := flag.Int("funcs", 0, "list this many of the largest functions")
	strs := flag.Int("strings", 0, "list this many of the longest printable runs in the read-only data")
	md := flag.Bool("md", false, "write the package table as Markdown")
	br := flag.Bool("brotli", false, "also print the size of the site's brotli copy (internal/static, quality 11: slow)")
	mainPkg := flag.String("main", "./wasm", "the main package the module was built from: its GOOS=js GOARCH=wasm dependencies name the packages (the name section writes / as _)")
	flag.Parse()
	if *mainPkg != "" {
		loadPackages(*mainPkg)
	}
	if flag.NArg() < 1 || flag.NArg() > 2 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [flags] app.wasm [after.wasm]")
		os.Exit(2)
	}
	mods := make([]*module, flag.NArg())
	for i, name := range flag.Args() {
		b, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "wasmsize:", err)
			os.Exit(1)
		}
		if mods[i], err = parse(b); err != nil {
			fmt.Fprintf(os.Stderr, "wasmsize: %s: %v\n", name, err)
			os.Exit(1)
		}
	}
	w := os.Stdout
	if *br {
		for _, name := range flag.Args() {
			b, _ := os.ReadFile(name)
			c, err := static.Compress(static.Encoding{Name: "br"}, b)
			if err != nil {
				fmt.Fprintln(os.Stderr, "wasmsize:", err)
				os.Exit(1)
			}
			fmt.Fprintf(w, "%s: %d B, brotli %d B\n", name, len(b), len(c))
		}
	}
	if len(mods) == 2 {
		diff(w, mods[0], mods[1])
		return
	}
	m := mods[0]
	report(w, m, *top, *md)
	if *pkg != "" {
		listPkg(w, m, *pkg)
	}
	if *funcs > 0 {
		listFuncs(w, m.funcs, *funcs)
	}
	if *strs > 0 {
		listStrings(w, m, *strs)
	}
}

// report prints the sections, the data's parts and the top packages.
func report(w io.Writer, m *module, top int, md bool) {
	fmt.Fprintf(w, "module %d B\n", m.size)
	for _, s := range m.sections {
		fmt.Fprintf(w, "  section %-8s %9d B\n", s.name, s.size)
	}
	if len(m.funcs) > 0 && m.funcs[0].name == "" {
		fmt.Fprintln(w, "  (no name section: build without -ldflags=\"-s -w\" to see packages)")
	}
	if parts, err := m.dataParts(); err != nil {
		fmt.Fprintln(w, "  data:", err)
	} else {
		fmt.Fprintln(w, "data section by part (bytes stored):")
		for _, p := range parts {
			fmt.Fprintf(w, "  %-34s %9d B\n", p.name, p.size)
		}
	}
	if top <= 0 {
		return
	}
	pk := byPackage(m.funcs)
	if len(pk) > top {
		pk = pk[:top]
	}
	total := m.codeSize()
	if md {
		fmt.Fprintln(w, "| package | code, KB | share of code |")
		fmt.Fprintln(w, "|---|---|---|")
		for _, p := range pk {
			fmt.Fprintf(w, "| %s | %.0f | %.1f%% |\n", p.name, float64(p.size)/1000, 100*float64(p.size)/float64(total))
		}
		return
	}
	fmt.Fprintf(w, "code by package (top %d of %d B):\n", len(pk), total)
	for _, p := range pk {
		fmt.Fprintf(w, "  %9d B %5.1f%% %5d funcs  %s\n", p.size, 100*float64(p.size)/float64(total), p.n, p.name)
	}
}

// diff prints the packages whose code changed between two modules.
func diff(w io.Writer, a, b *module) {
	fmt.Fprintf(w, "module %d → %d B (%+d)\n", a.size, b.size, b.size-a.size)
	sa, sb := map[string]int{}, map[string]int{}
	for _, s := range a.sections {
		sa[s.name] += s.size
	}
	for _, s := range b.sections {
		sb[s.name] += s.size
	}
	for _, n := range []string{"code", "data"} {
		fmt.Fprintf(w, "  %-5s %9d → %9d B (%+d)\n", n, sa[n], sb[n], sb[n]-sa[n])
	}
	pa, pb := map[string]int{}, map[string]int{}
	for _, p := range byPackage(a.funcs) {
		pa[p.name] = p.size
	}
	for _, p := range byPackage(b.funcs) {
		pb[p.name] = p.size
	}
	type d struct {
		name string
		d    int
	}
	var ds []d
	for n := range union(pa, pb) {
		if pb[n] != pa[n] {
			ds = append(ds, d{n, pb[n] - pa[n]})
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].d < ds[j].d || ds[i].d == ds[j].d && ds[i].name < ds[j].name })
	fmt.Fprintln(w, "code by package, changed:")
	for _, x := range ds {
		fmt.Fprintf(w, "  %+9d B  %s\n", x.d, x.name)
	}
}

func union(a, b map[string]int) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

func listPkg(w io.Writer, m *module, pkg string) {
	var fs []fn
	for _, f := range m.funcs {
		if packageOf(f.name) == pkg {
			fs = append(fs, f)
		}
	}
	fmt.Fprintf(w, "functions of %s:\n", pkg)
	listFuncs(w, fs, len(fs))
}

func listFuncs(w io.Writer, fs []fn, n int) {
	fs = append([]fn(nil), fs...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].size > fs[j].size })
	if len(fs) > n {
		fs = fs[:n]
	}
	for _, f := range fs {
		fmt.Fprintf(w, "  %8d B  %s\n", f.size, f.name)
	}
}

// listStrings prints the longest runs of printable bytes in the data
// before the function tables: string constants and embedded text.
func listStrings(w io.Writer, m *module, n int) {
	type run struct {
		addr uint32
		s    string
	}
	var runs []run
	for _, s := range m.segments {
		start := -1
		for i := 0; i <= len(s.data); i++ {
			printable := i < len(s.data) && (s.data[i] >= 0x20 && s.data[i] < 0x7f || s.data[i] == '\n' || s.data[i] == '\t')
			if printable && start < 0 {
				start = i
			}
			if !printable && start >= 0 {
				if i-start >= 64 {
					runs = append(runs, run{s.offset + uint32(start), string(s.data[start:i])})
				}
				start = -1
			}
		}
	}
	sort.Slice(runs, func(i, j int) bool { return len(runs[i].s) > len(runs[j].s) })
	if len(runs) > n {
		runs = runs[:n]
	}
	fmt.Fprintln(w, "longest printable runs in the data:")
	for _, r := range runs {
		head := r.s
		if len(head) > 100 {
			head = head[:100]
		}
		fmt.Fprintf(w, "  %8d B at %#x  %q\n", len(r.s), r.addr, head)
	}
}

type pkgSize struct {
	name    string
	size, n int
}

func byPackage(fs []fn) []pkgSize {
	m := map[string]*pkgSize{}
	for _, f := range fs {
		p := packageOf(f.name)
		if m[p] == nil {
			m[p] = &pkgSize{name: p}
		}
		m[p].size += f.size
		m[p].n++
	}
	out := make([]pkgSize, 0, len(m))
	for _, p := range m {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].size > out[j].size || out[i].size == out[j].size && out[i].name < out[j].name
	})
	return out
}

// packages maps the name section's spelling of an import path (the
// linker writes every byte but letters, digits, _ and . as _) to the path.
var packages = map[string]string{}

// loadPackages reads the import paths of the main package's
// dependencies in the WebAssembly build.
func loadPackages(main string) {
	cmd := exec.Command("go", "list", "-deps", main)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmsize: go list -deps %s: %v (packages are shown as the name section spells them)\n", main, err)
		return
	}
	for _, p := range strings.Fields(string(out)) {
		packages[mangle.ReplaceAllString(p, "_")] = p
	}
}

var mangle = regexp.MustCompile(`[^\w.]`)

// packageOf gives the import path of a function's name in the name
// section ("github.com_a_b.__T_.M", from "github.com/a/b.(*T).M", →
// "github.com/a/b"): the longest known package the name starts with,
// followed by a dot. Compiler-made helpers ("type:.eq.T") count under
// "type:", the module's own (wasm_export_run, …) under "(wasm)".
func packageOf(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	if strings.HasPrefix(name, "type_.") {
		return "type:"
	}
	best := ""
	for i := 0; i < len(name); i++ {
		if name[i] != '.' {
			continue
		}
		if p, ok := packages[name[:i]]; ok {
			best = p
		}
	}
	if best != "" {
		return best
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	return "(wasm)"
}
