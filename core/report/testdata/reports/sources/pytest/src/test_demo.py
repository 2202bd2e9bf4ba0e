import os
import pytest

COUNTER = os.path.join(os.path.dirname(__file__), ".flaky.count")


def test_adds():
    assert 1 + 1 == 2


def test_fails_always():
    assert 1 + 1 == 3


def test_flaky():
    # fails on the 1st attempt (counter file), passes on the rerun
    n = int(open(COUNTER).read()) + 1 if os.path.exists(COUNTER) else 1
    open(COUNTER, "w").write(str(n))
    assert n % 3 != 1


@pytest.fixture
def broken_setup():
    raise RuntimeError("no database")


@pytest.fixture
def broken_teardown():
    yield
    raise RuntimeError("cleanup failed")


def test_setup_error(broken_setup):
    pass


def test_teardown_error_after_pass(broken_teardown):
    pass


def test_teardown_error_after_fail(broken_teardown):
    assert False, "body failed"


@pytest.mark.skip(reason="not here")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False


@pytest.mark.xfail(reason="fixed?")
def test_xpass():
    pass


@pytest.mark.parametrize("x", [1, 2, 3])
def test_param(x):
    assert x != 2
