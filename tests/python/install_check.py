"""Installs the built package offline into a fresh venv (as a user would, from the build tree) and
imports it there: `pip install --no-build-isolation --no-index build/python` into a venv made with
--system-site-packages (for the system torch). Usage: install_check.py BUILD_PYTHON_DIR."""
import os
import shutil
import subprocess
import sys
import tempfile


def main() -> int:
    package = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="brec_venv_") as tmp:
        env_dir = os.path.join(tmp, "env")
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", env_dir], check=True)
        python = os.path.join(env_dir, "bin", "python")
        # A copy of the package folder: pip builds in place and must not leave files in the build tree.
        copy = os.path.join(tmp, "package")
        shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index", copy],
                       check=True, cwd=tmp)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        out = subprocess.run([python, "-c", "import brec; print(brec.__file__); print(len(brec.pairs()))"],
                             check=True, cwd=tmp, env=env, capture_output=True, text=True).stdout.split()
        print(" ".join(out))
        if not out[0].startswith(env_dir) or out[1] != "400":
            print("FAILED: brec was not imported from the venv, or its pairs are missing", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
