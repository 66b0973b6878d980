! ------------------------------------------------------------------
! Example problem (Fortran 2003):
!
! A damped pendulum: a bob of mass m on a massless rod of length l,
! turning about its pivot against a rotational damper c, under
! gravity g. With theta the angle from the downward vertical and
! omega = theta',
!
!    theta' = omega,
!    omega' = -(g/l) sin(theta) - c omega / (m l^2),
!
! from theta = 1.5 rad (a swing far from small) at rest, on the
! interval from t = 0 to t = 10. This program solves the problem
! with the BDF method, Newton iteration with the dense linear
! solver and a difference-quotient Jacobian, and prints the state
! every 1 s. Run statistics are printed at the end.
!
! The lines marked "energy audit" attach EnergyAudit's drop-in
! audit through its Fortran module energy_audit_drop_in: the
! kinetic energy T = m l^2 omega^2 / 2, the potential energy
! V = m g l (1 - cos theta) and the damper's power P = -c omega^2,
! over q = [theta] and v = [omega]. The audit checks that
! C = T + V + Z stays constant along the computed solution; the
! program exits with 1 when it does not. Compiled with -DWRONG_SIGN,
! the damper pushes the pendulum along instead of holding it back,
! and the audit fails.
! ------------------------------------------------------------------

module ode_mod

  !======= Inclusions ===========
  use, intrinsic :: iso_c_binding
  use fsundials_core_mod

  !======= Declarations =========
  implicit none

  ! number of equations
  integer(c_int64_t), parameter :: neq = 2

  ! pendulum parameters
  real(c_double), parameter :: mass = 1.0d0     ! bob [kg]
  real(c_double), parameter :: rodlen = 0.8d0   ! rod [m]
  real(c_double), parameter :: grav = 9.81d0    ! gravity [m/s^2]
  real(c_double), parameter :: damp = 0.08d0    ! damper [N m s]

  ! sign of the damper's moment (minus); -DWRONG_SIGN flips it
#ifdef WRONG_SIGN
  real(c_double), parameter :: damper_sign = 1.0d0
#else
  real(c_double), parameter :: damper_sign = -1.0d0
#endif

contains

  ! ----------------------------------------------------------------
  ! RhsFn: The right hand side function for the pendulum,
  ! y = [theta, omega]
  !
  ! Return values:
  !    0 = success,
  !    1 = recoverable error,
  !   -1 = non-recoverable error
  ! ----------------------------------------------------------------
  integer(c_int) function RhsFn(tn, sunvec_y, sunvec_f, user_data) &
    result(ierr) bind(C, name='RhsFn')

    !======= Inclusions ===========
    use, intrinsic :: iso_c_binding

    !======= Declarations =========
    implicit none

    ! calling variables
    real(c_double), value :: tn        ! current time
    type(N_Vector)        :: sunvec_y  ! solution N_Vector
    type(N_Vector)        :: sunvec_f  ! rhs N_Vector
    type(c_ptr), value    :: user_data ! user-defined data

    ! pointers to data in SUNDIALS vectors
    real(c_double), pointer :: yvec(:)
    real(c_double), pointer :: fvec(:)

    !======= Internals ============

    ! get data arrays from SUNDIALS vectors
    yvec => FN_VGetArrayPointer(sunvec_y)
    fvec => FN_VGetArrayPointer(sunvec_f)

    ! fill RHS vector
    fvec(1) = yvec(2)
    fvec(2) = -(grav/rodlen)*sin(yvec(1)) + damper_sign*damp*yvec(2)/(mass*rodlen**2)

    ! return success
    ierr = 0
    return

  end function RhsFn

  ! energy audit: T, V and the damper's power P over q = [theta], v = [omega]
  real(c_double) function KineticEnergy(q, v, t, user_data) bind(C) ! energy audit
    real(c_double), intent(in) :: q(*), v(*)                         ! energy audit
    real(c_double), value :: t                                       ! energy audit
    type(c_ptr), value :: user_data                                  ! energy audit
    KineticEnergy = 0.5d0*mass*rodlen**2*v(1)**2                     ! energy audit
  end function KineticEnergy                                         ! energy audit
  real(c_double) function PotentialEnergy(q, t, user_data) bind(C)   ! energy audit
    real(c_double), intent(in) :: q(*)                               ! energy audit
    real(c_double), value :: t                                       ! energy audit
    type(c_ptr), value :: user_data                                  ! energy audit
    PotentialEnergy = mass*grav*rodlen*(1.0d0 - cos(q(1)))           ! energy audit
  end function PotentialEnergy                                       ! energy audit
  real(c_double) function DamperPower(q, v, t, user_data) bind(C)    ! energy audit
    real(c_double), intent(in) :: q(*), v(*)                         ! energy audit
    real(c_double), value :: t                                       ! energy audit
    type(c_ptr), value :: user_data                                  ! energy audit
    DamperPower = -damp*v(1)**2                                      ! energy audit
  end function DamperPower                                           ! energy audit

end module ode_mod

program main

  !======= Inclusions ===========
  use, intrinsic :: iso_c_binding
  use fsundials_core_mod
  use fcvodes_mod                ! Fortran interface to CVODES (CVODE's API)
  use fnvector_serial_mod        ! Fortran interface to serial N_Vector
  use fsunmatrix_dense_mod       ! Fortran interface to dense SUNMatrix
  use fsunlinsol_dense_mod       ! Fortran interface to dense SUNLinearSolver
  use ode_mod                    ! ODE functions
  use energy_audit_drop_in       ! energy audit

  !======= Declarations =========
  implicit none

  ! local variables
  real(c_double) :: tstart     ! initial time
  real(c_double) :: tend       ! final time
  real(c_double) :: rtol, atol ! relative and absolute tolerance
  real(c_double) :: dtout      ! output time interval
  real(c_double) :: tout       ! output time
  real(c_double) :: tcur(1)    ! current time

  integer(c_int) :: ierr       ! error flag from C functions
  integer(c_int) :: nout       ! number of outputs

  integer :: outstep           ! output loop counter

  type(N_Vector), pointer :: sunvec_y      ! sundials vector
  type(SUNMatrix), pointer :: sunmat_A      ! sundials matrix
  type(SUNLinearSolver), pointer :: sunlinsol_LS  ! sundials linear solver
  type(c_ptr)                    :: ctx           ! SUNDIALS simulation context
  type(c_ptr)                    :: cvode_mem     ! CVODE memory
  type(c_ptr)                    :: audit         ! energy audit
  logical                        :: passed        ! energy audit

  ! solution vector, neq is set in the ode_mod module
  real(c_double) :: yvec(neq)

  !======= Internals ============

  ! initialize ODE
  tstart = 0.0d0
  tend = 10.0d0
  tcur = tstart
  tout = tstart
  dtout = 1.0d0
  nout = ceiling(tend/dtout)

  ! initialize solution vector
  yvec(1) = 1.5d0
  yvec(2) = 0.0d0

  ! create SUNDIALS context
  ierr = FSUNContext_Create(SUN_COMM_NULL, ctx)

  ! create a serial vector
  sunvec_y => FN_VMake_Serial(neq, yvec, ctx)
  if (.not. associated(sunvec_y)) then
    print *, 'ERROR: sunvec = NULL'
    stop 1
  end if

  ! create a dense matrix
  sunmat_A => FSUNDenseMatrix(neq, neq, ctx)
  if (.not. associated(sunmat_A)) then
    print *, 'ERROR: sunmat = NULL'
    stop 1
  end if

  ! create a dense linear solver
  sunlinsol_LS => FSUNLinSol_Dense(sunvec_y, sunmat_A, ctx)
  if (.not. associated(sunlinsol_LS)) then
    print *, 'ERROR: sunlinsol = NULL'
    stop 1
  end if

  ! create CVode memory
  cvode_mem = FCVodeCreate(CV_BDF, ctx)
  if (.not. c_associated(cvode_mem)) then
    print *, 'ERROR: cvode_mem = NULL'
    stop 1
  end if

  ! initialize CVode
  ierr = FCVodeInit(cvode_mem, c_funloc(RhsFn), tstart, sunvec_y)
  if (ierr /= 0) then
    print *, 'Error in FCVodeInit, ierr = ', ierr, '; halting'
    stop 1
  end if

  ! set relative and absolute tolerances
  rtol = 1.0d-10
  atol = 1.0d-12

  ierr = FCVodeSStolerances(cvode_mem, rtol, atol)
  if (ierr /= 0) then
    print *, 'Error in FCVodeSStolerances, ierr = ', ierr, '; halting'
    stop 1
  end if

  ! attach linear solver
  ierr = FCVodeSetLinearSolver(cvode_mem, sunlinsol_LS, sunmat_A)
  if (ierr /= 0) then
    print *, 'Error in FCVodeSetLinearSolver, ierr = ', ierr, '; halting'
    stop 1
  end if

  audit = ea_cvode_audit_create(1, c_funloc(KineticEnergy), c_funloc(PotentialEnergy), & ! energy audit
                                c_funloc(DamperPower), c_null_ptr, 1.0d-3)               ! energy audit

  ! start time stepping
  print *, '   '
  print *, 'Damped pendulum, BDF with the dense linear solver'
  print *, '   '
  print '(a)', '           t                    theta                   omega'
  print '(3(1x,es23.16))', tcur, yvec(1), yvec(2)
  do outstep = 1, nout

    ! call CVode
    tout = min(tout + dtout, tend)
    ierr = ea_cvode_audit(audit, cvode_mem, tout, sunvec_y, tcur, CV_NORMAL) ! energy audit
    if (ierr /= 0) then
      print *, 'Error in FCVODE, ierr = ', ierr, '; halting'
      stop 1
    end if

    ! output current solution
    print '(3(1x,es23.16))', tcur, yvec(1), yvec(2)

  end do

  ! diagnostics output
  call CVodeStats(cvode_mem)
  call ea_cvode_audit_print_summary_stdout(audit) ! energy audit
  passed = ea_cvode_audit_passed(audit)           ! energy audit
  call ea_cvode_audit_free(audit)                 ! energy audit

  ! clean up
  call FCVodeFree(cvode_mem)
  ierr = FSUNLinSolFree(sunlinsol_LS)
  call FSUNMatDestroy(sunmat_A)
  call FN_VDestroy(sunvec_y)
  ierr = FSUNContext_Free(ctx)
  if (.not. passed) stop 1, quiet=.true. ! energy audit

end program main

! ----------------------------------------------------------------
! CVodeStats
!
! Print CVODE statstics to standard out
! ----------------------------------------------------------------
subroutine CVodeStats(cvode_mem)

  !======= Inclusions ===========
  use iso_c_binding
  use fcvodes_mod

  !======= Declarations =========
  implicit none

  type(c_ptr), intent(in) :: cvode_mem ! solver memory structure

  integer(c_int)  :: ierr          ! error flag

  integer(c_long) :: nsteps(1)     ! num steps
  integer(c_long) :: nfevals(1)    ! num function evals
  integer(c_long) :: nlinsetups(1) ! num linear solver setups
  integer(c_long) :: netfails(1)   ! num error test fails

  integer(c_int)  :: qlast(1)      ! method order in last step
  integer(c_int)  :: qcur(1)       ! method order for next step

  real(c_double)  :: hinused(1)    ! initial step size
  real(c_double)  :: hlast(1)      ! last step size
  real(c_double)  :: hcur(1)       ! step size for next step
  real(c_double)  :: tcur(1)       ! internal time reached

  integer(c_long) :: nniters(1)    ! nonlinear solver iterations
  integer(c_long) :: nncfails(1)   ! nonlinear solver fails

  integer(c_long) :: njevals(1)    ! num Jacobian evaluations

  !======= Internals ============

  ! general solver statistics
  ierr = FCVodeGetIntegratorStats(cvode_mem, nsteps, nfevals, nlinsetups, &
                                  netfails, qlast, qcur, hinused, hlast, hcur, tcur)
  if (ierr /= 0) then
    print *, 'Error in FCVodeGetIntegratorStats, ierr = ', ierr, '; halting'
    stop 1
  end if

  ! nonlinear solver statistics
  ierr = FCVodeGetNonlinSolvStats(cvode_mem, nniters, nncfails)
  if (ierr /= 0) then
    print *, 'Error in FCVodeGetNonlinSolvStats, ierr = ', ierr, '; halting'
    stop 1
  end if

  ! number of Jacobian evaluations
  ierr = FCVodeGetNumJacEvals(cvode_mem, njevals)
  if (ierr /= 0) then
    print *, 'Error in FCVodeGetNumJacEvals, ierr = ', ierr, '; halting'
    stop 1
  end if

  print *, ' '
  print *, ' General Solver Stats:'
  print '(4x,A,i9)', 'Total internal steps taken =', nsteps
  print '(4x,A,i9)', 'Total rhs function calls   =', nfevals
  print '(4x,A,i9)', 'Num lin solver setup calls =', nlinsetups
  print '(4x,A,i9)', 'Num error test failures    =', netfails
  print '(4x,A,i9)', 'Last method order          =', qlast
  print '(4x,A,i9)', 'Next method order          =', qcur
  print '(4x,A,es23.16)', 'First internal step size   =', hinused
  print '(4x,A,es23.16)', 'Last internal step size    =', hlast
  print '(4x,A,es23.16)', 'Next internal step size    =', hcur
  print '(4x,A,es23.16)', 'Current internal time      =', tcur
  print '(4x,A,i9)', 'Num nonlinear solver iters =', nniters
  print '(4x,A,i9)', 'Num nonlinear solver fails =', nncfails
  print '(4x,A,i9)', 'Num Jacobian evaluations   =', njevals
  print *, ' '

  return

end subroutine CVodeStats
