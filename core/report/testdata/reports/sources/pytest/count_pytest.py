#!/usr/bin/python3
"""count_pytest.py FILE...: trials in a pytest --junitxml file by pytest's own rules (ElementTree, independent
of flakegate). skipped (skip, xfail) → no trial; <error> "failed on setup"/"test setup failure" → a setup failure,
no trial; <error> "failed on teardown"/"test teardown failure" → a teardown failure beside the body: when the
testcase holds nothing else and the testcase before it (same name) failed, pytest split one test in two (call
failure + teardown error) and it is no new trial; else the body passed. <failure> or other <error> → failed trial."""
import sys, xml.etree.ElementTree as ET
for f in sys.argv[1:]:
    passed = trials = setup = teardown = 0
    prev = None
    for tc in ET.parse(f).iter('testcase'):
        name = (tc.get('classname'), tc.get('name'))
        kids = {c.tag for c in tc}
        errs = [c.get('message', '') for c in tc if c.tag == 'error']
        su = [m for m in errs if m.startswith('failed on setup') or m == 'test setup failure']
        td = [m for m in errs if m.startswith('failed on teardown') or m == 'test teardown failure']
        other = len(errs) - len(su) - len(td)
        setup += len(su); teardown += len(td)
        failed = 'failure' in kids or other > 0
        if 'skipped' in kids or su:
            prev = (name, False); continue
        if td and not failed and prev == (name, True):
            prev = (name, False); continue
        trials += 1; passed += not failed
        prev = (name, failed)
    print(f"{f}\tpassed={passed}\ttrials={trials}\tsetup={setup}\tteardown={teardown}")
