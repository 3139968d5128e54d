"""The tt-umd scripts' reporting: one ``ok``/``FAIL`` line per check, and the counts that
decide the exit status (``N passed, M failed``)."""


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def __call__(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}" + (f"  ({detail})" if detail else ""), flush=True)
        else:
            self.failed += 1
            print(f"FAIL {name}" + (f": {detail}" if detail else ""), flush=True)
        return ok

    def summary(self):
        """Prints the counts; returns the exit status (0 only when nothing failed)."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


check = Checks()
