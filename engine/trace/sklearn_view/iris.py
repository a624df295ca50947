"""sklearn.datasets.load_iris: the iris data of scikit-learn 1.6.1 (sklearn/datasets/data/iris.csv and
descr/iris.rst, BSD-3-Clause), its 150 x 4 measurements stored as tenths of a centimetre (two digits each)."""
from __future__ import annotations

import numpy as np

from .bunch import Bunch

_TENTHS = (
    "5135140249301402473213024631150250361402543917044634140350341502442914024931150154371502483416024830140143301101"
    "5840120257441504543913045135140357381703513815035434170251371504463610025133170548341902503016025034160452351502"
    "5234140247321602483116025434150452411501554214024931150250321202553513024936140144301302513415025035130345231303"
    "4432130250351606513819044830140351381602463214025337150250331402703247146432451569314915552340136528461557284513"
    "6333471649243310662946135227391450203510593042156022401061294714562936136731441456304515582741106222451556253911"
    "5932481861284013632549156128471264294313663044146828481467305017602945155726351055243811552437105827391260275116"
    "5430451560344516673147156323441356304113552540135526441261304614582640125023331056274213573042125729421362294313"
    "5125301157284113633360255827511971305921632956186530582276306621492545177329631867255818723661256532512064275319"
    "6830552157255020582851246432532365305518773867227726692360225015693257235628492077286720632749186733572172326018"
    "6228481861304918642856217230581674286119793864206428562263285115612656147730612363345624643155186030481869315421"
    "67315624693151235827511968325923673357256730522363255019653052206234542359305118"
)
_TARGETS = "0" * 50 + "1" * 50 + "2" * 50
FEATURE_NAMES = ["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"]
DESCR = """.. _iris_dataset:

Iris plants dataset
--------------------

**Data Set Characteristics:**

:Number of Instances: 150 (50 in each of three classes)
:Number of Attributes: 4 numeric, predictive attributes and the class
:Attribute Information:
    - sepal length in cm
    - sepal width in cm
    - petal length in cm
    - petal width in cm
    - class:
            - Iris-Setosa
            - Iris-Versicolour
            - Iris-Virginica

:Summary Statistics:

============== ==== ==== ======= ===== ====================
                Min  Max   Mean    SD   Class Correlation
============== ==== ==== ======= ===== ====================
sepal length:   4.3  7.9   5.84   0.83    0.7826
sepal width:    2.0  4.4   3.05   0.43   -0.4194
petal length:   1.0  6.9   3.76   1.76    0.9490  (high!)
petal width:    0.1  2.5   1.20   0.76    0.9565  (high!)
============== ==== ==== ======= ===== ====================

:Missing Attribute Values: None
:Class Distribution: 33.3% for each of 3 classes.
:Creator: R.A. Fisher
:Donor: Michael Marshall (MARSHALL%PLU@io.arc.nasa.gov)
:Date: July, 1988

The famous Iris database, first used by Sir R.A. Fisher. The dataset is taken
from Fisher's paper. Note that it's the same as in R, but not as in the UCI
Machine Learning Repository, which has two wrong data points.

This is perhaps the best known database to be found in the
pattern recognition literature.  Fisher's paper is a classic in the field and
is referenced frequently to this day.  (See Duda & Hart, for example.)  The
data set contains 3 classes of 50 instances each, where each class refers to a
type of iris plant.  One class is linearly separable from the other 2; the
latter are NOT linearly separable from each other.

.. dropdown:: References

  - Fisher, R.A. "The use of multiple measurements in taxonomic problems"
    Annual Eugenics, 7, Part II, 179-188 (1936); also in "Contributions to
    Mathematical Statistics" (John Wiley, NY, 1950).
  - Duda, R.O., & Hart, P.E. (1973) Pattern Classification and Scene Analysis.
    (Q327.D83) John Wiley & Sons.  ISBN 0-471-22361-1.  See page 218.
  - Dasarathy, B.V. (1980) "Nosing Around the Neighborhood: A New System
    Structure and Classification Rule for Recognition in Partially Exposed
    Environments".  IEEE Transactions on Pattern Analysis and Machine
    Intelligence, Vol. PAMI-2, No. 1, 67-71.
  - Gates, G.W. (1972) "The Reduced Nearest Neighbor Rule".  IEEE Transactions
    on Information Theory, May 1972, 431-433.
  - See also: 1988 MLC Proceedings, 54-64.  Cheeseman et al"s AUTOCLASS II
    conceptual clustering system finds 3 classes in the data.
  - Many, many more ...
"""


def load_iris(*, return_X_y=False, as_frame=False):
    if as_frame:
        raise ValueError("load_iris(as_frame=True) makes a pandas DataFrame, which the explorer does not have: "
                         "leave as_frame=False")
    tenths = [int(_TENTHS[i:i + 2]) for i in range(0, len(_TENTHS), 2)]
    data = np.array(tenths, dtype=np.float64).reshape(150, 4) / 10
    target = np.array([int(t) for t in _TARGETS])
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, frame=None, target_names=np.array(["setosa", "versicolor", "virginica"]),
                 DESCR=DESCR, feature_names=list(FEATURE_NAMES), filename="iris.csv",
                 data_module="sklearn.datasets.data")
