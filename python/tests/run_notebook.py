"""Executes a notebook of examples/ top to bottom with nbclient on Debian's ipykernel, as a teacher would run it;
fails on the first cell that raises. CTest runs every notebook through it (notebook/NAME); the executed copy, with
its figures, is written to --out when given.

    scripts/python.sh python/tests/run_notebook.py examples/flip_map.ipynb [--out build/python/examples/flip_map.ipynb]
"""

import argparse
import os
import pathlib
import sys
import time

import nbclient
import nbformat


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("notebook", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path)
    parser.add_argument("--timeout", type=int, default=600, help="seconds a cell may take")
    args = parser.parse_args()
    book = nbformat.read(args.notebook, as_version=4)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's debugger warns on Debian's frozen modules
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"  # figures inline, as in Jupyter
    start = time.perf_counter()
    client = nbclient.NotebookClient(book, timeout=args.timeout, kernel_name="python3",
                                     resources={"metadata": {"path": str(args.notebook.resolve().parent)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        print(f"{args.notebook}: a cell failed:\n{error}", file=sys.stderr)
        return 1
    finally:
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(book, args.out)
    figures = sum(1 for cell in book.cells if cell.cell_type == "code"
                  for output in cell.get("outputs", []) if "image/png" in output.get("data", {}))
    print(f"{args.notebook}: {len(book.cells)} cells, {figures} figures, {time.perf_counter() - start:.1f} s")
    if figures == 0:
        print(f"{args.notebook}: no figure was drawn", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
