! energy_audit_ida_drop_in: the IDA drop-in audit for Fortran programs on SUNDIALS' Fortran 2003
! interface (SUNDIALS 7, fidas_mod). A thin layer over the C interface (ida_drop_in.h), as
! energy_audit_drop_in is over CVODE's: the functions that C takes by value are bound to it
! directly; the solve call takes the program's tret(1) and type(N_Vector) arguments as FIDASolve
! takes them, and the strings come back as Fortran strings. The library checks every argument and
! reports through the return codes and ea_ida_audit_last_error; this module only forwards.
!
!   use energy_audit_ida_drop_in
!   audit = ea_ida_audit_create(ndofs, c_funloc(T), c_funloc(V), c_funloc(P), c_null_ptr, 1.0d-3)
!   ierr = ea_ida_audit(audit, ida_mem, tout, tret, sunvec_y, sunvec_yp, IDA_NORMAL)   (in place of FIDASolve)
!   call ea_ida_audit_print_summary_stdout(audit)
!   passed = ea_ida_audit_passed(audit)
!   call ea_ida_audit_free(audit)
!
! The energy functions are bind(C) functions with the arguments of energy_audit_drop_in's abstract
! interfaces (ea_kinetic_energy_fn, ea_potential_energy_fn, ea_power_fn, ...), passed with
! c_funloc; they are not declared a second time here, so that a program may use both modules. The
! constraint power's interface, IDA's alone, is ea_constraint_power_fn below.
!
! The program links EnergyAudit::fortran_idas, which brings EnergyAudit::idas and SUNDIALS' IDAS
! with its Fortran module (fidas_mod); a program on CVODE alone links EnergyAudit::fortran and
! neither of these.
module energy_audit_ida_drop_in

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod, only: N_Vector

  implicit none
  private

  ! Return codes besides IDA's own flags (drop_in_energy_functions.h).
  integer(c_int), parameter, public :: EA_IDA_AUDIT_SUCCESS = 0
  integer(c_int), parameter, public :: EA_IDA_AUDIT_INVALID_ARGUMENT = -1001 ! the message says which
  integer(c_int), parameter, public :: EA_IDA_AUDIT_FAILED = -1002           ! a step could not be audited

  public :: ea_constraint_power_fn
  public :: ea_ida_audit_create, ea_ida_audit_create_hamiltonian, ea_ida_audit_create_whole_state
  public :: ea_ida_audit_set_layout, ea_ida_audit_set_energy_rates, ea_ida_audit_set_constraint_power
  public :: ea_ida_audit
  public :: ea_ida_audit_relative_drift, ea_ida_audit_passed, ea_ida_audit_steps
  public :: ea_ida_audit_verdict, ea_ida_audit_last_error
  public :: ea_ida_audit_print_summary_stdout, ea_ida_audit_free

  abstract interface
    ! v^T G^T lambda, the power of the constraint forces [W], with the multipliers lambda the
    ! state's entries after [q, v].
    real(c_double) function ea_constraint_power_fn(q, v, multipliers, t, user_data) bind(C)
      import :: c_double, c_ptr
      real(c_double), intent(in) :: q(*), v(*), multipliers(*)
      real(c_double), value :: t
      type(c_ptr), value :: user_data
    end function
  end interface

  ! The C functions themselves: those whose arguments Fortran passes as C takes them are public
  ! under their C names; the others are reached through the wrappers after `contains`.
  interface
    ! A new audit of y = [q, v, lambda] with dofs coordinates: kinetic and potential required,
    ! power c_null_funptr for no non-potential forces; passes when delta_C <= threshold.
    ! c_null_ptr only when memory runs out; bad arguments make every call return
    ! EA_IDA_AUDIT_INVALID_ARGUMENT, with ea_ida_audit_last_error saying why.
    type(c_ptr) function ea_ida_audit_create(dofs, kinetic, potential, power, user_data, threshold) &
        bind(C, name='ea_ida_audit_create')
      import :: c_int, c_funptr, c_ptr, c_double
      integer(c_int), value :: dofs
      type(c_funptr), value :: kinetic, potential, power
      type(c_ptr), value :: user_data
      real(c_double), value :: threshold
    end function

    ! Hamilton's variables, y = [q, p, ...]: hamiltonian required, hamiltonian_rate and forces
    ! may be c_null_funptr.
    type(c_ptr) function ea_ida_audit_create_hamiltonian(dofs, hamiltonian, hamiltonian_rate, forces, &
        user_data, threshold) bind(C, name='ea_ida_audit_create_hamiltonian')
      import :: c_int, c_funptr, c_ptr, c_double
      integer(c_int), value :: dofs
      type(c_funptr), value :: hamiltonian, hamiltonian_rate, forces
      type(c_ptr), value :: user_data
      real(c_double), value :: threshold
    end function

    ! The whole-state form: energy E(y, t) required, energy_rate and power may be c_null_funptr.
    type(c_ptr) function ea_ida_audit_create_whole_state(energy, energy_rate, power, user_data, threshold) &
        bind(C, name='ea_ida_audit_create_whole_state')
      import :: c_funptr, c_ptr, c_double
      type(c_funptr), value :: energy, energy_rate, power
      type(c_ptr), value :: user_data
      real(c_double), value :: threshold
    end function

    ! Where q and v lie in the state, before the first ea_ida_audit call, as 0-based offsets
    ! into the C array (the i-th coordinate at y(q_first + i*stride + 1) in Fortran's indexing);
    ! length: the state's number of entries, 0 for not checked.
    integer(c_int) function ea_ida_audit_set_layout(audit, length, q_first, v_first, stride) &
        bind(C, name='ea_ida_audit_set_layout')
      import :: c_int, c_ptr, c_long
      type(c_ptr), value :: audit
      integer(c_long), value :: length, q_first, v_first, stride
    end function

    ! For a rheonomic model: dT/dt and dV/dt (either c_null_funptr), before the first call.
    integer(c_int) function ea_ida_audit_set_energy_rates(audit, kinetic_rate, potential_rate) &
        bind(C, name='ea_ida_audit_set_energy_rates')
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: audit
      type(c_funptr), value :: kinetic_rate, potential_rate
    end function

    ! For rheonomic constraints: the constraint forces' power (an ea_constraint_power_fn;
    ! c_null_funptr for none), before the first call.
    integer(c_int) function ea_ida_audit_set_constraint_power(audit, power) &
        bind(C, name='ea_ida_audit_set_constraint_power')
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: audit
      type(c_funptr), value :: power
    end function

    ! delta_C = sup |C - C(t0)| / sup max(|E|, |T|, |V|) over the audited steps.
    real(c_double) function ea_ida_audit_relative_drift(audit) bind(C, name='ea_ida_audit_relative_drift')
      import :: c_double, c_ptr
      type(c_ptr), value :: audit
    end function

    ! Accepted steps audited.
    integer(c_long) function ea_ida_audit_steps(audit) bind(C, name='ea_ida_audit_steps')
      import :: c_long, c_ptr
      type(c_ptr), value :: audit
    end function

    ! Frees the audit; c_null_ptr is allowed.
    subroutine ea_ida_audit_free(audit) bind(C, name='ea_ida_audit_free')
      import :: c_ptr
      type(c_ptr), value :: audit
    end subroutine

    integer(c_int) function c_ea_ida_audit(audit, ida_mem, tout, tret, yret, ypret, itask) &
        bind(C, name='ea_ida_audit')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: audit, ida_mem
      real(c_double), value :: tout
      type(c_ptr), value :: tret, yret, ypret
      integer(c_int), value :: itask
    end function

    integer(c_int) function c_ea_ida_audit_passed(audit) bind(C, name='ea_ida_audit_passed')
      import :: c_int, c_ptr
      type(c_ptr), value :: audit
    end function

    type(c_ptr) function c_ea_ida_audit_verdict(audit) bind(C, name='ea_ida_audit_verdict')
      import :: c_ptr
      type(c_ptr), value :: audit
    end function

    type(c_ptr) function c_ea_ida_audit_last_error(audit) bind(C, name='ea_ida_audit_last_error')
      import :: c_ptr
      type(c_ptr), value :: audit
    end function

    subroutine c_ea_ida_audit_print_summary_stdout(audit) &
        bind(C, name='ea_ida_audit_print_summary_stdout')
      import :: c_ptr
      type(c_ptr), value :: audit
    end subroutine
  end interface

contains

  ! In place of FIDASolve(ida_mem, tout, tret, yret, ypret, itask), with FIDASolve's arguments as
  ! FIDASolve takes them (tret an array, tret(1) the time reached): the same return value and the
  ! same solution, every accepted step audited. EA_IDA_AUDIT_FAILED when a step could not be
  ! audited, EA_IDA_AUDIT_INVALID_ARGUMENT for bad arguments (ea_ida_audit_last_error).
  integer(c_int) function ea_ida_audit(audit, ida_mem, tout, tret, yret, ypret, itask) result(flag)
    type(c_ptr), intent(in) :: audit
    type(c_ptr) :: ida_mem
    real(c_double), intent(in) :: tout
    real(c_double), dimension(*), target, intent(inout) :: tret
    type(N_Vector), target, intent(inout) :: yret
    type(N_Vector), target, intent(inout) :: ypret
    integer(c_int), intent(in) :: itask
    flag = c_ea_ida_audit(audit, ida_mem, tout, c_loc(tret(1)), c_loc(yret), c_loc(ypret), itask)
  end function

  ! .true. when the verdict is "pass".
  logical function ea_ida_audit_passed(audit)
    type(c_ptr), intent(in) :: audit
    ea_ida_audit_passed = c_ea_ida_audit_passed(audit) /= 0
  end function

  ! "pass", "fail", "incomplete" or "error".
  function ea_ida_audit_verdict(audit) result(verdict)
    type(c_ptr), intent(in) :: audit
    character(len=:), allocatable :: verdict
    verdict = fortran_string(c_ea_ida_audit_verdict(audit))
  end function

  ! The message of the last error, "" when there was none.
  function ea_ida_audit_last_error(audit) result(message)
    type(c_ptr), intent(in) :: audit
    character(len=:), allocatable :: message
    message = fortran_string(c_ea_ida_audit_last_error(audit))
  end function

  ! The summary ("energy audit: delta_C = ... (threshold ..., N steps audited): verdict" and its
  ! details) on standard output, after what the program has written there: Fortran's output unit
  ! is flushed first, C's stdout after.
  subroutine ea_ida_audit_print_summary_stdout(audit)
    use, intrinsic :: iso_fortran_env, only: output_unit
    type(c_ptr), intent(in) :: audit
    flush (output_unit)
    call c_ea_ida_audit_print_summary_stdout(audit)
  end subroutine

  include 'fortran_string.inc'

end module energy_audit_ida_drop_in
