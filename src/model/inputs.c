// inputs.c: the table of inputs.h as data.
#include "inputs.h"

#define PF_IN_DIM_1 PF_DIM_1
#define PF_IN_DIM_N PF_DIM_N
#define PF_IN_DIM_S PF_DIM_S
#define PF_IN_DIM_E PF_DIM_E
const pf_input_desc pf_model_inputs[PF_NUM_INPUTS] = {
#define PF_INPUT_DESC(id, is_int, outer, inner, channels, source) \
    [PF_IN_##id] = {#id, is_int, PF_IN_DIM_##outer, PF_IN_DIM_##inner, channels, source},
    PF_MODEL_INPUTS(PF_INPUT_DESC)
#undef PF_INPUT_DESC
};
