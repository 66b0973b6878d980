! A stand-in for the Fortran drop-in module energy_audit_arkode_drop_in
! (plugins/sundials/fortran/energy_audit_arkode_drop_in.f90) with no audit behind it, for the test that the
! Fortran test program prints the same with the audit as without it: compiled into the unaudited
! program in place of the real module and linked with SUNDIALS alone, the program's "energy audit"
! lines do what the program did before they were added. ea_arkode_audit_evolve is plain FARKodeEvolve, the
! summary prints nothing, and the audit passes (the program's exit status is 0). Only what
! tests/plugins/drop_in/damped_oscillator_erkstep_f2003.F90 uses is here.
module energy_audit_arkode_drop_in

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod, only: N_Vector
  use farkode_mod, only: FARKodeEvolve

  implicit none
  private
  public :: ea_arkode_audit_create, ea_arkode_audit_evolve, ea_arkode_audit_print_summary_stdout
  public :: ea_arkode_audit_passed, ea_arkode_audit_free

contains

  type(c_ptr) function ea_arkode_audit_create(dofs, kinetic, potential, power, user_data, threshold)
    integer(c_int), value :: dofs
    type(c_funptr), value :: kinetic, potential, power
    type(c_ptr), value :: user_data
    real(c_double), value :: threshold
    ea_arkode_audit_create = c_null_ptr
  end function

  integer(c_int) function ea_arkode_audit_evolve(audit, arkode_mem, tout, yout, tret, itask)
    type(c_ptr), intent(in) :: audit
    type(c_ptr) :: arkode_mem
    real(c_double), intent(in) :: tout
    type(N_Vector), target, intent(inout) :: yout
    real(c_double), dimension(*), target, intent(inout) :: tret
    integer(c_int), intent(in) :: itask
    ea_arkode_audit_evolve = FARKodeEvolve(arkode_mem, tout, yout, tret, itask)
  end function

  subroutine ea_arkode_audit_print_summary_stdout(audit)
    type(c_ptr), intent(in) :: audit
  end subroutine

  logical function ea_arkode_audit_passed(audit)
    type(c_ptr), intent(in) :: audit
    ea_arkode_audit_passed = .true.
  end function

  subroutine ea_arkode_audit_free(audit)
    type(c_ptr), value :: audit
  end subroutine

end module energy_audit_arkode_drop_in
