! A stand-in for the Fortran drop-in module (plugins/sundials/fortran/energy_audit_drop_in.f90)
! with no audit behind it, for the test that the Fortran example prints the same with the audit as
! without it: compiled into the unaudited program in place of the real module and linked with
! SUNDIALS alone, the example's "energy audit" lines do what the program did before they were
! added. ea_cvode_audit is plain FCVode, the summary prints nothing, and the audit passes (the
! program's exit status is 0). Only what examples/drop_in_cvode/pendulum_cvode_f2003.F90 uses is here.
module energy_audit_drop_in

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod, only: N_Vector
  use fcvodes_mod, only: FCVode

  implicit none
  private
  public :: ea_cvode_audit_create, ea_cvode_audit, ea_cvode_audit_print_summary_stdout
  public :: ea_cvode_audit_passed, ea_cvode_audit_free

contains

  type(c_ptr) function ea_cvode_audit_create(dofs, kinetic, potential, power, user_data, threshold)
    integer(c_int), value :: dofs
    type(c_funptr), value :: kinetic, potential, power
    type(c_ptr), value :: user_data
    real(c_double), value :: threshold
    ea_cvode_audit_create = c_null_ptr
  end function

  integer(c_int) function ea_cvode_audit(audit, cvode_mem, tout, yout, tret, itask)
    type(c_ptr), intent(in) :: audit
    type(c_ptr) :: cvode_mem
    real(c_double), intent(in) :: tout
    type(N_Vector), target, intent(inout) :: yout
    real(c_double), dimension(*), target, intent(inout) :: tret
    integer(c_int), intent(in) :: itask
    ea_cvode_audit = FCVode(cvode_mem, tout, yout, tret, itask)
  end function

  subroutine ea_cvode_audit_print_summary_stdout(audit)
    type(c_ptr), intent(in) :: audit
  end subroutine

  logical function ea_cvode_audit_passed(audit)
    type(c_ptr), intent(in) :: audit
    ea_cvode_audit_passed = .true.
  end function

  subroutine ea_cvode_audit_free(audit)
    type(c_ptr), value :: audit
  end subroutine

end module energy_audit_drop_in
