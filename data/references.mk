# The reference runs that the figures, the paper and `make reproduce` use, in one
# place: read by the Makefile (include), by scripts (sourced) and by the tests.
REF_H100=data/paper-h100-80gb-hbm3-20261125T201758Z.h5
REF_H200=data/paper-h200-20261125T194624Z.h5
REF_TRANSFERS=data/transfers-h100-80gb-hbm3-20261125T202230Z.h5
REF_PORTABILITY_H100=data/portability-h100-80gb-hbm3-20261125T215853Z.h5
# The shape suite (experiments/shapes.ini) on the H100 and the H200.
REF_SHAPES_H100=data/shapes-h100-80gb-hbm3-20261125T202130Z.h5
REF_SHAPES_H200=data/shapes-h200-20261125T194937Z.h5
# make reproduce on another H100, of the same commit: the paper matrix, the
# shape suite and the transfers.
REF_REPRO=data/reproduce-paper-20261125T220415Z.h5
REF_REPRO_SHAPES_H100=data/reproduce-shapes-20261125T220415Z.h5
REF_REPRO_TRANSFERS_H100=data/reproduce-transfers-20261125T220415Z.h5
# The H200's transfers and portability runs, and make reproduce on another
# H200 of the same commit: the paper matrix, the shape suite and the transfers.
REF_TRANSFERS_H200=data/transfers-h200-20261125T195037Z.h5
REF_PORTABILITY_H200=data/portability-h200-20261125T195747Z.h5
REF_REPRO_H200=data/reproduce-paper-20261125T201001Z.h5
REF_REPRO_SHAPES_H200=data/reproduce-shapes-20261125T201001Z.h5
REF_REPRO_TRANSFERS_H200=data/reproduce-transfers-20261125T201001Z.h5
