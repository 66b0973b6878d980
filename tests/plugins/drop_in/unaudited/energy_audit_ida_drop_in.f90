! A stand-in for the Fortran drop-in module energy_audit_ida_drop_in
! (plugins/sundials/fortran/energy_audit_ida_drop_in.f90) with no audit behind it, for the test that the
! Fortran test program prints the same with the audit as without it: compiled into the unaudited
! program in place of the real module and linked with SUNDIALS alone, the program's "energy audit"
! lines do what the program did before they were added. ea_ida_audit is plain FIDASolve, the
! summary prints nothing, and the audit passes (the program's exit status is 0). Only what
! tests/plugins/drop_in/damped_oscillator_ida_f2003.F90 uses is here.
module energy_audit_ida_drop_in

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod, only: N_Vector
  use fidas_mod, only: FIDASolve

  implicit none
  private
  public :: ea_ida_audit_create, ea_ida_audit, ea_ida_audit_print_summary_stdout
  public :: ea_ida_audit_passed, ea_ida_audit_free

contains

  type(c_ptr) function ea_ida_audit_create(dofs, kinetic, potential, power, user_data, threshold)
    integer(c_int), value :: dofs
    type(c_funptr), value :: kinetic, potential, power
    type(c_ptr), value :: user_data
    real(c_double), value :: threshold
    ea_ida_audit_create = c_null_ptr
  end function

  integer(c_int) function ea_ida_audit(audit, ida_mem, tout, tret, yret, ypret, itask)
    type(c_ptr), intent(in) :: audit
    type(c_ptr) :: ida_mem
    real(c_double), intent(in) :: tout
    real(c_double), dimension(*), target, intent(inout) :: tret
    type(N_Vector), target, intent(inout) :: yret
    type(N_Vector), target, intent(inout) :: ypret
    integer(c_int), intent(in) :: itask
    ea_ida_audit = FIDASolve(ida_mem, tout, tret, yret, ypret, itask)
  end function

  subroutine ea_ida_audit_print_summary_stdout(audit)
    type(c_ptr), intent(in) :: audit
  end subroutine

  logical function ea_ida_audit_passed(audit)
    type(c_ptr), intent(in) :: audit
    ea_ida_audit_passed = .true.
  end function

  subroutine ea_ida_audit_free(audit)
    type(c_ptr), value :: audit
  end subroutine

end module energy_audit_ida_drop_in
