! energy_audit_drop_in: the CVODE drop-in audit for Fortran programs on SUNDIALS' Fortran 2003
! interface (SUNDIALS 7, fcvodes_mod). A thin layer over the C interface (cvode_drop_in.h): the
! functions that C takes by value are bound to it directly; the evolve call takes the program's
! type(N_Vector) and its tret(1) as FCVode takes them, and the strings come back as Fortran
! strings. The library checks every argument and reports through the return codes and
! ea_cvode_audit_last_error; this module only forwards.
!
!   use energy_audit_drop_in
!   audit = ea_cvode_audit_create(ndofs, c_funloc(T), c_funloc(V), c_funloc(P), c_null_ptr, 1.0d-3)
!   ierr = ea_cvode_audit(audit, cvode_mem, tout, sunvec_y, tcur, CV_NORMAL)   (in place of FCVode)
!   call ea_cvode_audit_print_summary_stdout(audit)
!   passed = ea_cvode_audit_passed(audit)
!   call ea_cvode_audit_free(audit)
!
! The energies are bind(C) functions of the interfaces below (ea_kinetic_energy_fn, ...): q, v (or
! p, or the whole state y) as arrays, t and user_data by value. user_data is the program's own
! type(c_ptr), passed to every energy function as given.
!
! The program links EnergyAudit::fortran, which brings EnergyAudit::cvodes and SUNDIALS' CVODES
! with its Fortran modules (fcvodes_mod; not fcvode_mod, whose CVODE would define every CVode
! function a second time).
module energy_audit_drop_in

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod, only: N_Vector

  implicit none
  private

  ! Return codes besides CVODE's own flags (drop_in_energy_functions.h).
  integer(c_int), parameter, public :: EA_CVODE_AUDIT_SUCCESS = 0
  integer(c_int), parameter, public :: EA_CVODE_AUDIT_INVALID_ARGUMENT = -1001 ! the message says which
  integer(c_int), parameter, public :: EA_CVODE_AUDIT_FAILED = -1002           ! a step could not be audited

  public :: ea_kinetic_energy_fn, ea_potential_energy_fn, ea_power_fn, ea_potential_rate_fn
  public :: ea_hamiltonian_fn, ea_generalized_forces_fn, ea_state_energy_fn
  public :: ea_cvode_audit_create, ea_cvode_audit_create_hamiltonian, ea_cvode_audit_create_whole_state
  public :: ea_cvode_audit_set_layout, ea_cvode_audit_set_energy_rates
  public :: ea_cvode_audit
  public :: ea_cvode_audit_relative_drift, ea_cvode_audit_passed, ea_cvode_audit_steps
  public :: ea_cvode_audit_verdict, ea_cvode_audit_last_error
  public :: ea_cvode_audit_print_summary_stdout, ea_cvode_audit_free

  ! The energy functions' interfaces (drop_in_energy_functions.h); declare a program's own with
  ! procedure(...) to have the compiler check them, or write them with these arguments.
  abstract interface
    ! T(q, v, t) [J]; a power at (q, v, t) [W] (P, dT/dt) has the same arguments.
    real(c_double) function ea_kinetic_energy_fn(q, v, t, user_data) bind(C)
      import :: c_double, c_ptr
      real(c_double), intent(in) :: q(*), v(*)
      real(c_double), value :: t
      type(c_ptr), value :: user_data
    end function
    real(c_double) function ea_power_fn(q, v, t, user_data) bind(C)
      import :: c_double, c_ptr
      real(c_double), intent(in) :: q(*), v(*)
      real(c_double), value :: t
      type(c_ptr), value :: user_data
    end function
    ! V(q, t) [J]; dV/dt at fixed q [W] has the same arguments.
    real(c_double) function ea_potential_energy_fn(q, t, user_data) bind(C)
      import :: c_double, c_ptr
      real(c_double), intent(in) :: q(*)
      real(c_double), value :: t
      type(c_ptr), value :: user_data
    end function
    real(c_double) function ea_potential_rate_fn(q, t, user_data) bind(C)
      import :: c_double, c_ptr
      real(c_double), intent(in) :: q(*)
      real(c_double), value :: t
      type(c_ptr), value :: user_data
    end function
    ! H(q, p, t) [J], and dH/dt at fixed q and p [W].
    real(c_double) function ea_hamiltonian_fn(q, p, t, user_data) bind(C)
      import :: c_double, c_ptr
      real(c_double), intent(in) :: q(*), p(*)
      real(c_double), value :: t
      type(c_ptr), value :: user_data
    end function
    ! The generalized forces Q(q, p, t) of what H does not hold, written to forces(1:dofs).
    subroutine ea_generalized_forces_fn(q, p, t, forces, user_data) bind(C)
      import :: c_double, c_ptr
      real(c_double), intent(in) :: q(*), p(*)
      real(c_double), value :: t
      real(c_double), intent(out) :: forces(*)
      type(c_ptr), value :: user_data
    end subroutine
    ! E(y, t) of the whole state, its rate dE/dt, and the power P of what E does not hold.
    real(c_double) function ea_state_energy_fn(y, t, user_data) bind(C)
      import :: c_double, c_ptr
      real(c_double), intent(in) :: y(*)
      real(c_double), value :: t
      type(c_ptr), value :: user_data
    end function
  end interface

  ! The C functions themselves: those whose arguments Fortran passes as C takes them are public
  ! under their C names; the others are reached through the wrappers after `contains`.
  interface
    ! A new audit of y = [q, v, ...] with dofs coordinates: kinetic and potential required, power
    ! c_null_funptr for no non-potential forces; passes when delta_C <= threshold. c_null_ptr
    ! only when memory runs out; bad arguments make every call return
    ! EA_CVODE_AUDIT_INVALID_ARGUMENT, with ea_cvode_audit_last_error saying why.
    type(c_ptr) function ea_cvode_audit_create(dofs, kinetic, potential, power, user_data, threshold) &
        bind(C, name='ea_cvode_audit_create')
      import :: c_int, c_funptr, c_ptr, c_double
      integer(c_int), value :: dofs
      type(c_funptr), value :: kinetic, potential, power
      type(c_ptr), value :: user_data
      real(c_double), value :: threshold
    end function

    ! Hamilton's variables, y = [q, p, ...]: hamiltonian required, hamiltonian_rate and forces
    ! may be c_null_funptr.
    type(c_ptr) function ea_cvode_audit_create_hamiltonian(dofs, hamiltonian, hamiltonian_rate, forces, &
        user_data, threshold) bind(C, name='ea_cvode_audit_create_hamiltonian')
      import :: c_int, c_funptr, c_ptr, c_double
      integer(c_int), value :: dofs
      type(c_funptr), value :: hamiltonian, hamiltonian_rate, forces
      type(c_ptr), value :: user_data
      real(c_double), value :: threshold
    end function

    ! The whole-state form: energy E(y, t) required, energy_rate and power may be c_null_funptr.
    type(c_ptr) function ea_cvode_audit_create_whole_state(energy, energy_rate, power, user_data, threshold) &
        bind(C, name='ea_cvode_audit_create_whole_state')
      import :: c_funptr, c_ptr, c_double
      type(c_funptr), value :: energy, energy_rate, power
      type(c_ptr), value :: user_data
      real(c_double), value :: threshold
    end function

    ! Where q and v lie in the state, before the first ea_cvode_audit call, as 0-based offsets
    ! into the C array (the i-th coordinate at y(q_first + i*stride + 1) in Fortran's indexing);
    ! length: the state's number of entries, 0 for not checked.
    integer(c_int) function ea_cvode_audit_set_layout(audit, length, q_first, v_first, stride) &
        bind(C, name='ea_cvode_audit_set_layout')
      import :: c_int, c_ptr, c_long
      type(c_ptr), value :: audit
      integer(c_long), value :: length, q_first, v_first, stride
    end function

    ! For a rheonomic model: dT/dt and dV/dt (either c_null_funptr), before the first call.
    integer(c_int) function ea_cvode_audit_set_energy_rates(audit, kinetic_rate, potential_rate) &
        bind(C, name='ea_cvode_audit_set_energy_rates')
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: audit
      type(c_funptr), value :: kinetic_rate, potential_rate
    end function

    ! delta_C = sup |C - C(t0)| / sup max(|E|, |T|, |V|) over the audited steps.
    real(c_double) function ea_cvode_audit_relative_drift(audit) bind(C, name='ea_cvode_audit_relative_drift')
      import :: c_double, c_ptr
      type(c_ptr), value :: audit
    end function

    ! Accepted steps audited.
    integer(c_long) function ea_cvode_audit_steps(audit) bind(C, name='ea_cvode_audit_steps')
      import :: c_long, c_ptr
      type(c_ptr), value :: audit
    end function

    ! Frees the audit; c_null_ptr is allowed.
    subroutine ea_cvode_audit_free(audit) bind(C, name='ea_cvode_audit_free')
      import :: c_ptr
      type(c_ptr), value :: audit
    end subroutine

    integer(c_int) function c_ea_cvode_audit(audit, cvode_mem, tout, yout, tret, itask) &
        bind(C, name='ea_cvode_audit')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: audit, cvode_mem
      real(c_double), value :: tout
      type(c_ptr), value :: yout, tret
      integer(c_int), value :: itask
    end function

    integer(c_int) function c_ea_cvode_audit_passed(audit) bind(C, name='ea_cvode_audit_passed')
      import :: c_int, c_ptr
      type(c_ptr), value :: audit
    end function

    type(c_ptr) function c_ea_cvode_audit_verdict(audit) bind(C, name='ea_cvode_audit_verdict')
      import :: c_ptr
      type(c_ptr), value :: audit
    end function

    type(c_ptr) function c_ea_cvode_audit_last_error(audit) bind(C, name='ea_cvode_audit_last_error')
      import :: c_ptr
      type(c_ptr), value :: audit
    end function

    subroutine c_ea_cvode_audit_print_summary_stdout(audit) &
        bind(C, name='ea_cvode_audit_print_summary_stdout')
      import :: c_ptr
      type(c_ptr), value :: audit
    end subroutine
  end interface

contains

  ! In place of FCVode(cvode_mem, tout, yout, tret, itask), with FCVode's arguments as FCVode
  ! takes them (tret an array, tret(1) the time reached): the same return value and the same
  ! solution, every accepted step audited. EA_CVODE_AUDIT_FAILED when a step could not be
  ! audited, EA_CVODE_AUDIT_INVALID_ARGUMENT for bad arguments (ea_cvode_audit_last_error).
  integer(c_int) function ea_cvode_audit(audit, cvode_mem, tout, yout, tret, itask) result(flag)
    type(c_ptr), intent(in) :: audit
    type(c_ptr) :: cvode_mem
    real(c_double), intent(in) :: tout
    type(N_Vector), target, intent(inout) :: yout
    real(c_double), dimension(*), target, intent(inout) :: tret
    integer(c_int), intent(in) :: itask
    flag = c_ea_cvode_audit(audit, cvode_mem, tout, c_loc(yout), c_loc(tret(1)), itask)
  end function

  ! .true. when the verdict is "pass".
  logical function ea_cvode_audit_passed(audit)
    type(c_ptr), intent(in) :: audit
    ea_cvode_audit_passed = c_ea_cvode_audit_passed(audit) /= 0
  end function

  ! "pass", "fail", "incomplete" or "error".
  function ea_cvode_audit_verdict(audit) result(verdict)
    type(c_ptr), intent(in) :: audit
    character(len=:), allocatable :: verdict
    verdict = fortran_string(c_ea_cvode_audit_verdict(audit))
  end function

  ! The message of the last error, "" when there was none.
  function ea_cvode_audit_last_error(audit) result(message)
    type(c_ptr), intent(in) :: audit
    character(len=:), allocatable :: message
    message = fortran_string(c_ea_cvode_audit_last_error(audit))
  end function

  ! The summary ("energy audit: delta_C = ... (threshold ..., N steps audited): verdict" and its
  ! details) on standard output, after what the program has written there: Fortran's output unit
  ! is flushed first, C's stdout after.
  subroutine ea_cvode_audit_print_summary_stdout(audit)
    use, intrinsic :: iso_fortran_env, only: output_unit
    type(c_ptr), intent(in) :: audit
    flush (output_unit)
    call c_ea_cvode_audit_print_summary_stdout(audit)
  end subroutine

  include 'fortran_string.inc'

end module energy_audit_drop_in
