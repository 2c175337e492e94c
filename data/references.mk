# The reference runs that the figures, the paper and `make reproduce` use, in one
# place: read by the Makefile (include), by scripts (sourced) and by the tests.
REF_H100=data/paper-h100-80gb-hbm3-20261124T171649Z.h5
REF_H200=data/paper-h200-20261124T172646Z.h5
REF_TRANSFERS=data/transfers-h100-80gb-hbm3-20261122T034335Z.h5
REF_REPRO=data/reproduce-paper-20261124T174500Z.h5
# The shape suite (experiments/shapes.ini): the references on the H100 and the
# H200, and a repeat of the H100's (same commit, same machine, minutes later)
# that bounds its noise.
REF_SHAPES_H100=data/shapes-h100-80gb-hbm3-20261125T142648Z.h5
REF_SHAPES_H200=data/shapes-h200-20261125T144127Z.h5
REF_SHAPES_REPEAT=data/shapes-h100-80gb-hbm3-20261125T142811Z.h5
