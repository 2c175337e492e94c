# The reference runs that the figures, the paper and `make reproduce` use, in one
# place: read by the Makefile (include), by scripts (sourced) and by the tests.
REF_H100=data/paper-h100-80gb-hbm3-20261206T044053Z.h5
REF_H200=data/paper-h200-20261206T021340Z.h5
REF_TRANSFERS=data/transfers-h100-80gb-hbm3-20261206T044506Z.h5
REF_PORTABILITY_H100=data/portability-h100-80gb-hbm3-20261206T063048Z.h5
# The shape suite (experiments/shapes.ini) on the H100 and the H200.
REF_SHAPES_H100=data/shapes-h100-80gb-hbm3-20261206T044400Z.h5
REF_SHAPES_H200=data/shapes-h200-20261206T021655Z.h5
# make reproduce on another H100, of the same commit: the paper matrix, the
# shape suite and the transfers.
REF_REPRO=data/reproduce-paper-h100-80gb-hbm3-20261206T064913Z.h5
REF_REPRO_SHAPES_H100=data/reproduce-shapes-h100-80gb-hbm3-20261206T064913Z.h5
REF_REPRO_TRANSFERS_H100=data/reproduce-transfers-h100-80gb-hbm3-20261206T064913Z.h5
# The H200's transfers and portability runs, and make reproduce on another
# H200 of the same commit: the paper matrix, the shape suite and the transfers.
REF_TRANSFERS_H200=data/transfers-h200-20261206T021803Z.h5
REF_PORTABILITY_H200=data/portability-h200-20261206T101127Z.h5
REF_REPRO_H200=data/reproduce-paper-h200-20261206T103031Z.h5
REF_REPRO_SHAPES_H200=data/reproduce-shapes-h200-20261206T103031Z.h5
REF_REPRO_TRANSFERS_H200=data/reproduce-transfers-h200-20261206T103031Z.h5
# The estimates runs (experiments/estimates.ini): paired, standalone and
# second-timer estimates where a rung comes within 10% of cuBLAS.
REF_ESTIMATES_H100=data/estimates-h100-80gb-hbm3-20261206T063208Z.h5
REF_ESTIMATES_H200=data/estimates-h200-20261206T101245Z.h5
# The held-out corpus (experiments/heldout.ini), run once its rules were final:
# shapes no rule of the ladder was made from.
REF_HELDOUT_H100=data/heldout-h100-80gb-hbm3-20261206T044534Z.h5
REF_HELDOUT_H200=data/heldout-h200-20261206T101903Z.h5
# The same commit's held-out run on another freshly started H100.
REF_REPRO_HELDOUT_H100=data/heldout-h100-80gb-hbm3-20261206T065447Z.h5
# The same commit's held-out run with the second timer on (--kernel-timer:
# every GPU sample's kernels timed by CUPTI's records too), on each GPU.
REF_KT_HELDOUT_H100=data/heldout-h100-80gb-hbm3-20261206T045115Z.h5
REF_KT_HELDOUT_H200=data/heldout-h200-20261206T102413Z.h5
# The shape suite on a host of two H100s, of one commit: cut into two shards,
# one a GPU (scripts/run-gpus.sh), merged; and on one of the two GPUs alone,
# just before.  The shards' own files are beside the merged one.  Not yet made
# at the commit of the set above: empty, so the claims x2_* wait for it
# (reported "not evaluated"), never judged on another commit's run.
REF_X2_SHAPES_H100=
REF_X2_ONE_SHAPES_H100=
# The tuning corpus v2 (experiments/tuning-*.ini of c6c9df2: random, llama3,
# deepbench, narrow, mid, rows and large), one H100, that the dispatch model
# of kernels/gpu/23_dispatch.cu is fitted on (scripts/fit-dispatch.py, into
# kernels/dispatch_model_table.c).
REF_TUNING2_RANDOM=data/tuning-random-h100-80gb-hbm3-20261207T101104Z.h5
REF_TUNING2_LLAMA3=data/tuning-llama3-h100-80gb-hbm3-20261207T102003Z.h5
REF_TUNING2_DEEPBENCH=data/tuning-deepbench-h100-80gb-hbm3-20261207T100747Z.h5
REF_TUNING2_NARROW=data/tuning-narrow-h100-80gb-hbm3-20261207T100918Z.h5
REF_TUNING2_MID=data/tuning-mid-h100-80gb-hbm3-20261207T102548Z.h5
REF_TUNING2_ROWS=data/tuning-rows-h100-80gb-hbm3-20261207T100659Z.h5
REF_TUNING2_LARGE=data/tuning-large-h100-80gb-hbm3-20261207T101730Z.h5
# The held-out corpus's second draw (experiments/heldout-v2.ini of 3239e03),
# which judges the dispatch model: not a reference run (its commit is not the
# set's).
REF_HELDOUT_V2_H200=data/heldout-v2-h200-20261207T041448Z.h5
REF_HELDOUT_V2_H100=data/heldout-v2-h100-80gb-hbm3-20261207T072919Z.h5
# The same draw with --kernel-timer (the third estimate of each % of cuBLAS).
REF_HELDOUT_V2_KT_H100=data/heldout-v2-h100-80gb-hbm3-20261207T073429Z.h5
# The held-out corpus's third draw (experiments/heldout-v3.ini), which judges
# the dispatch model with rung 22, and the same commit's run with the second
# timer, on each GPU.  Not yet made: empty, so the claims heldout3_* wait for
# them (reported "not evaluated").
REF_HELDOUT3_H100=
REF_HELDOUT3_H200=
REF_KT_HELDOUT3_H100=
REF_KT_HELDOUT3_H200=
