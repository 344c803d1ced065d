#!/usr/bin/env python3
"""Checks load-check.sh's preconditions: the host probe's figure against PROBE_MAX_S.

Run: python3 -m unittest tributary-benchmarks/scripts/test_load_check.py
"""
import os
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def check_load(**env):
    """Sources load-check.sh, runs check_load with a load limit no load reaches, returns its state."""
    script = (f'source "{HERE}/load-check.sh"; failed=(); MAX_LOAD=1000 check_load; '
              'printf "failed=%s\\n" "${failed[@]}"; echo "under_load=$under_load"; '
              'echo "host_probe=$host_probe"')
    run_env = {k: v for k, v in os.environ.items()
               if k not in ("PROBE_MAX_S", "ALLOW_LOAD", "REP")}
    run_env.update(env)
    out = subprocess.run(["bash", "-c", script], env=run_env, capture_output=True, text=True,
                         check=True)
    return out.stdout, out.stderr


class CheckLoadTest(unittest.TestCase):
    def test_checkLoad_noProbeLimit_recordsTheProbeAndFailsNothing(self):
        out, err = check_load()
        self.assertIn("host_probe=host probe: interpreter ", out)
        self.assertIn("failed=\n", out)
        self.assertIn("host probe: interpreter ", err)

    def test_checkLoad_probeAboveLimit_failsNamingTheFigure(self):
        out, _ = check_load(PROBE_MAX_S="0.000001")
        self.assertIn("is above PROBE_MAX_S=0.000001, the host runs slower", out)
        self.assertIn("(wait, or ALLOW_LOAD=1 to run anyway)", out)
        self.assertIn("under_load=\n", out)

    def test_checkLoad_probeAboveLimitAllowed_marksTheFigures(self):
        out, _ = check_load(PROBE_MAX_S="0.000001", ALLOW_LOAD="1")
        self.assertIn("failed=\n", out)
        self.assertIn("figures taken on a slow host", out)

    def test_checkLoad_insideARepetition_probesNothing(self):
        out, err = check_load(PROBE_MAX_S="0.000001", REP="2")
        self.assertIn("failed=\n", out)
        self.assertNotIn("host probe", err)


if __name__ == "__main__":
    unittest.main()
