"""Shared helpers of the Python tests: the CLI binary (NS_CLI, set by CTest),
scratch directories, and reading the CLI's text outputs."""
import re
import os
import subprocess
import tempfile
import unittest

import numpy as np

CLI = os.environ.get("NS_CLI", "")
SOURCE_DIR = os.environ.get("NS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def cli(*args, check=True):
    """Runs `nanoscatter ARGS`; returns the CompletedProcess (text)."""
    if not CLI:
        raise unittest.SkipTest("NS_CLI not set (run through ctest)")
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"nanoscatter {' '.join(map(str, args))} failed: {p.stderr}")
    return p


def cli_error(*args):
    """The message of a failing CLI run, without the 'nanoscatter: error: '
    prefix, as Python gives it: an option named by its flag (--bin-width:)
    is named by its keyword (bin_width:), the rest of the line the same."""
    p = cli(*args, check=False)
    assert p.returncode != 0, f"expected a failure from {args}"
    line = p.stderr.strip().splitlines()[-1]
    prefix = "nanoscatter: error: "
    assert line.startswith(prefix), line
    message = line[len(prefix):]
    flag = re.match(r"--([a-z0-9-]+): ", message)
    if flag:
        message = flag.group(1).replace("-", "_") + ": " + message[flag.end():]
    return message


def read_table(path):
    """Columns of a text table (# header lines skipped)."""
    return np.loadtxt(path, comments="#", ndmin=2).T


class ScratchTestCase(unittest.TestCase):
    """A test case with a fresh temporary directory self.dir."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)
