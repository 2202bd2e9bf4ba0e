#!/usr/bin/python3
"""count_tap.py FILE...: leaf test points of a TAP stream (independent of flakegate).
A point is `ok`/`not ok` at some indent; it is a parent (not counted) when lines indented deeper than it come
right before it (its subtest block). # SKIP and # TODO points are no trial. YAML blocks (---/...) are skipped.
Prints passed, trials, skipped, todo, and whether the stream bailed out."""
import re, sys
pt = re.compile(r'^(\s*)(not ok|ok)\b(.*)$')
for f in sys.argv[1:]:
    lines = open(f, encoding='utf-8').read().split('\n')
    passed = trials = skip = todo = 0
    bail = False
    inyaml = None
    prev_indent = None  # indent of the previous meaningful line
    for ln in lines:
        if inyaml is not None:
            if ln.strip() == '...':
                inyaml = None
            continue
        if re.match(r'^\s*---\s*$', ln):
            inyaml = True
            continue
        if not ln.strip() or ln.strip().startswith('#'):
            continue
        ind = len(ln) - len(ln.lstrip(' '))
        if re.match(r'^\s*Bail out!', ln):
            bail = True
        m = pt.match(ln)
        if m:
            parent = prev_indent is not None and prev_indent > ind
            rest = m.group(3)
            d = re.search(r'(?<!\\)#\s*(SKIP|TODO)', rest, re.I)
            if not parent:
                if d and d.group(1).upper() == 'SKIP': skip += 1
                elif d: todo += 1
                else:
                    trials += 1
                    passed += m.group(2) == 'ok'
        prev_indent = ind
    print(f"{f}\tpassed={passed}\ttrials={trials}\tskip={skip}\ttodo={todo}\tbail={bail}")
