"""`pip install ./clients/python` into a fresh virtual environment, with no package index."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

from support import CLIENT, REPO


class InstallTests(unittest.TestCase):
    def test_pip_installs_the_library_offline_into_a_fresh_venv(self):
        with tempfile.TemporaryDirectory(prefix="gestured-py-venv.") as work:
            venv = os.path.join(work, "venv")
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True, timeout=120)
            python = os.path.join(venv, "bin", "python")
            # --no-index: no package index at all (nor any proxy for one); the build backend is in the tree.
            env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
            env.pop("PYTHONPATH", None)
            result = subprocess.run([python, "-m", "pip", "install", "--no-index", CLIENT],
                                    capture_output=True, text=True, timeout=300, env=env, cwd=work)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertIn("Successfully installed gestured-", result.stdout)
            probe = ("import gestured, importlib.metadata as m; "
                     "print(gestured.__file__); print(gestured.__version__); print(m.version('gestured'))")
            result = subprocess.run([python, "-c", probe], capture_output=True, text=True, timeout=60, env=env, cwd=work)
            self.assertEqual(result.returncode, 0, result.stderr)
            where, version, installed = result.stdout.split()
            self.assertTrue(where.startswith(venv + "/"), where)
            with open(os.path.join(REPO, "debian", "changelog")) as f:
                packaged = re.match(r"gestured \(([^)]+)\)", f.readline()).group(1)
            self.assertEqual((version, installed), (packaged, packaged))


if __name__ == "__main__":
    unittest.main()
