# energy_audit_drop_missing_mujoco_includes(): Debian's mujoco::mujoco names
# /usr/include/libqhull_r/, which exists only with libqhull-dev; MuJoCo's public headers need no
# Qhull, and CMake refuses a target that names a directory that does not exist, so the
# directories that do not exist are dropped from the imported target. Used by the project and by
# its installed package (EnergyAuditConfig.cmake, COMPONENTS mujoco).
function(energy_audit_drop_missing_mujoco_includes)
  get_target_property(includes mujoco::mujoco INTERFACE_INCLUDE_DIRECTORIES)
  set(existing "")
  foreach(dir IN LISTS includes)
    if(EXISTS "${dir}")
      list(APPEND existing "${dir}")
    endif()
  endforeach()
  set_target_properties(mujoco::mujoco PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${existing}")
endfunction()
