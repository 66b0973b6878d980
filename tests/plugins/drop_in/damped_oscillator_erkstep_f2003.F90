! ------------------------------------------------------------------
! Test program (Fortran 2003) of the ARKODE drop-in for Fortran:
!
! A damped oscillator, a mass m on a spring k against a damper c,
! m q'' = -c q' - k q, as a first-order system over y = [q, v]:
!
!    q' = v,
!    v' = -(c v + k q) / m,
!
! from q = 1 m at rest, on the interval from t = 0 to t = 10. This
! program solves it with ARKODE's ERKStep (FARKodeEvolve), its default
! explicit Runge-Kutta method with adaptive steps, prints the state
! every 1 s to 17 digits and ARKODE's statistics at the end.
!
! The lines marked "energy audit" attach EnergyAudit's drop-in audit
! through its module energy_audit_arkode_drop_in: T = m v^2 / 2,
! V = k q^2 / 2 and the damper's power P = -c v^2 over q = [q] and
! v = [v]. The program exits with 1 when the audit fails. Compiled
! with -DWRONG_SIGN, the damper's force enters the right-hand side
! with the wrong sign, pushing the mass along, and the audit fails.
! ------------------------------------------------------------------

module ode_mod

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod

  implicit none

  integer(c_int64_t), parameter :: neq = 2

  real(c_double), parameter :: mass = 1.5d0    ! [kg]
  real(c_double), parameter :: stiff = 4.0d0   ! spring [N/m]
  real(c_double), parameter :: damp = 0.3d0    ! damper [N s/m]

  ! the damper's force's sign (minus: it holds the mass back); -DWRONG_SIGN flips it
#ifdef WRONG_SIGN
  real(c_double), parameter :: damper_sign = 1.0d0
#else
  real(c_double), parameter :: damper_sign = -1.0d0
#endif

contains

  ! RhsFn: the right-hand side f(t, y) of the oscillator; 0 for success.
  integer(c_int) function RhsFn(tn, sunvec_y, sunvec_f, user_data) &
    result(ierr) bind(C, name='RhsFn')

    real(c_double), value :: tn
    type(N_Vector)        :: sunvec_y, sunvec_f
    type(c_ptr), value    :: user_data

    real(c_double), pointer :: y(:), f(:)

    y => FN_VGetArrayPointer(sunvec_y)
    f => FN_VGetArrayPointer(sunvec_f)

    f(1) = y(2)
    f(2) = (damper_sign*damp*y(2) - stiff*y(1))/mass

    ierr = 0

  end function RhsFn

  ! energy audit: T, V and the damper's power P over q = [q], v = [v]
  real(c_double) function KineticEnergy(q, v, t, user_data) bind(C) ! energy audit
    real(c_double), intent(in) :: q(*), v(*)                         ! energy audit
    real(c_double), value :: t                                       ! energy audit
    type(c_ptr), value :: user_data                                  ! energy audit
    KineticEnergy = 0.5d0*mass*v(1)**2                               ! energy audit
  end function KineticEnergy                                         ! energy audit
  real(c_double) function PotentialEnergy(q, t, user_data) bind(C)   ! energy audit
    real(c_double), intent(in) :: q(*)                               ! energy audit
    real(c_double), value :: t                                       ! energy audit
    type(c_ptr), value :: user_data                                  ! energy audit
    PotentialEnergy = 0.5d0*stiff*q(1)**2                            ! energy audit
  end function PotentialEnergy                                       ! energy audit
  real(c_double) function DamperPower(q, v, t, user_data) bind(C)    ! energy audit
    real(c_double), intent(in) :: q(*), v(*)                         ! energy audit
    real(c_double), value :: t                                       ! energy audit
    type(c_ptr), value :: user_data                                  ! energy audit
    DamperPower = -damp*v(1)**2                                      ! energy audit
  end function DamperPower                                           ! energy audit

end module ode_mod

program main

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod
  use farkode_mod                 ! Fortran interface to ARKODE
  use farkode_erkstep_mod         ! Fortran interface to ERKStep
  use fnvector_serial_mod
  use ode_mod
  use energy_audit_arkode_drop_in ! energy audit

  implicit none

  real(c_double) :: tstart, tend, dtout, tout, tcur(1)
  integer(c_int) :: ierr, nout
  integer :: outstep

  type(N_Vector), pointer :: sunvec_y
  type(c_ptr) :: ctx, arkode_mem
  type(c_ptr) :: audit  ! energy audit
  logical :: passed     ! energy audit

  real(c_double) :: y(neq)

  tstart = 0.0d0
  tend = 10.0d0
  dtout = 1.0d0
  tcur = tstart
  tout = tstart
  nout = ceiling(tend/dtout)

  y(1) = 1.0d0
  y(2) = 0.0d0

  ierr = FSUNContext_Create(SUN_COMM_NULL, ctx)
  sunvec_y => FN_VMake_Serial(neq, y, ctx)
  if (.not. associated(sunvec_y)) then
    print *, 'ERROR: sunvec = NULL'
    stop 1
  end if

  arkode_mem = FERKStepCreate(c_funloc(RhsFn), tstart, sunvec_y, ctx)
  if (.not. c_associated(arkode_mem)) then
    print *, 'ERROR: arkode_mem = NULL'
    stop 1
  end if
  ierr = FARKodeSStolerances(arkode_mem, 1.0d-10, 1.0d-12)
  if (ierr /= 0) then
    print *, 'Error in FARKodeSStolerances, ierr = ', ierr, '; halting'
    stop 1
  end if

  audit = ea_arkode_audit_create(1, c_funloc(KineticEnergy), c_funloc(PotentialEnergy), & ! energy audit
                                 c_funloc(DamperPower), c_null_ptr, 1.0d-3)               ! energy audit

  print '(a)', 'Damped oscillator, ERKStep with adaptive steps'
  print '(a)', '           t                       q                       v'
  print '(3(1x,es24.16e3))', tcur, y(1), y(2)
  do outstep = 1, nout
    tout = min(tout + dtout, tend)
    ierr = ea_arkode_audit_evolve(audit, arkode_mem, tout, sunvec_y, tcur, ARK_NORMAL) ! energy audit
    if (ierr /= 0) then
      print *, 'Error in FARKodeEvolve, ierr = ', ierr, '; halting'
      stop 1
    end if
    print '(3(1x,es24.16e3))', tcur, y(1), y(2)
  end do

  call ARKodeStats(arkode_mem)
  call ea_arkode_audit_print_summary_stdout(audit) ! energy audit
  passed = ea_arkode_audit_passed(audit)           ! energy audit
  call ea_arkode_audit_free(audit)                 ! energy audit

  call FARKodeFree(arkode_mem)
  call FN_VDestroy(sunvec_y)
  ierr = FSUNContext_Free(ctx)
  if (.not. passed) stop 1, quiet=.true. ! energy audit

contains

  ! ARKODE's statistics, every counter, on standard output.
  subroutine ARKodeStats(mem)
    type(c_ptr), intent(in) :: mem
    integer(c_long) :: nsteps(1), nattempts(1), nfevals(1), netfails(1)
    real(c_double) :: hinused(1), hlast(1), tnow(1)
    integer(c_int) :: ierr
    ierr = FARKodeGetNumSteps(mem, nsteps)
    ierr = ior(ierr, FARKodeGetNumStepAttempts(mem, nattempts))
    ierr = ior(ierr, FARKodeGetNumRhsEvals(mem, 0, nfevals))
    ierr = ior(ierr, FARKodeGetNumErrTestFails(mem, netfails))
    ierr = ior(ierr, FARKodeGetActualInitStep(mem, hinused))
    ierr = ior(ierr, FARKodeGetLastStep(mem, hlast))
    ierr = ior(ierr, FARKodeGetCurrentTime(mem, tnow))
    if (ierr /= 0) then
      print *, 'Error in ARKODE''s statistics; halting'
      stop 1
    end if
    print '(a)', ' General Solver Stats:'
    print '(4x,a,i9)', 'Total internal steps taken =', nsteps
    print '(4x,a,i9)', 'Total step attempts        =', nattempts
    print '(4x,a,i9)', 'Total rhs function calls   =', nfevals
    print '(4x,a,i9)', 'Num error test failures    =', netfails
    print '(4x,a,es24.16e3)', 'First internal step size   =', hinused
    print '(4x,a,es24.16e3)', 'Last internal step size    =', hlast
    print '(4x,a,es24.16e3)', 'Current internal time      =', tnow
  end subroutine ARKodeStats

end program main
