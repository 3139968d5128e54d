"""pytest plugin of scripts/test-llk.sh: shortens the harness's own wait for kernel completion.

On a simulator tt-llk's harness waits TestConfig.SIMULATOR_TIMEOUT (600 s) for the TRISC mailboxes
to read KERNEL_COMPLETE, then raises a TimeoutError naming the TRISCs that did not finish. That
message says more than pytest-timeout's, so the wait is set to $LLK_HANG_TIMEOUT seconds, below
the per-test pytest-timeout.
"""
import os


def pytest_runtest_setup(item):
    seconds = os.environ.get("LLK_HANG_TIMEOUT")
    if not seconds:
        return
    try:
        from helpers.test_config import TestConfig
    except ImportError:
        return
    TestConfig.SIMULATOR_TIMEOUT = int(seconds)
