// A planted violation for check_layering.cmake: the core including MuJoCo.
#include <mujoco/mujoco.h>
