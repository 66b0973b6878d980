! ------------------------------------------------------------------
! Test program (Fortran 2003) of the IDA drop-in for Fortran:
!
! A damped oscillator, a mass m on a spring k against a damper c,
! m q'' = -c q' - k q, written in residual form over y = [q, v]:
!
!    F1 = q' - v = 0,
!    F2 = m v' + c v + k q = 0,
!
! from q = 1 m at rest, on the interval from t = 0 to t = 10. This
! program solves it with IDA (FIDASolve), Newton iteration with the
! dense linear solver and a difference-quotient Jacobian, prints the
! state every 1 s to 17 digits and IDA's statistics at the end.
!
! The lines marked "energy audit" attach EnergyAudit's drop-in audit
! through its module energy_audit_ida_drop_in: T = m v^2 / 2,
! V = k q^2 / 2 and the damper's power P = -c v^2 over q = [q] and
! v = [v]. The program exits with 1 when the audit fails. Compiled
! with -DWRONG_SIGN, the damper's term enters the residual with the
! wrong sign, pushing the mass along, and the audit fails.
! ------------------------------------------------------------------

module dae_mod

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod

  implicit none

  integer(c_int64_t), parameter :: neq = 2

  real(c_double), parameter :: mass = 1.5d0    ! [kg]
  real(c_double), parameter :: stiff = 4.0d0   ! spring [N/m]
  real(c_double), parameter :: damp = 0.3d0    ! damper [N s/m]

  ! the damper's term in F2 (plus: it holds the mass back); -DWRONG_SIGN flips it
#ifdef WRONG_SIGN
  real(c_double), parameter :: damper_sign = -1.0d0
#else
  real(c_double), parameter :: damper_sign = 1.0d0
#endif

contains

  ! ResFn: the residual F(t, y, y') of the oscillator; 0 for success.
  integer(c_int) function ResFn(tn, sunvec_y, sunvec_yp, sunvec_r, user_data) &
    result(ierr) bind(C, name='ResFn')

    real(c_double), value :: tn
    type(N_Vector)        :: sunvec_y, sunvec_yp, sunvec_r
    type(c_ptr), value    :: user_data

    real(c_double), pointer :: y(:), yp(:), r(:)

    y => FN_VGetArrayPointer(sunvec_y)
    yp => FN_VGetArrayPointer(sunvec_yp)
    r => FN_VGetArrayPointer(sunvec_r)

    r(1) = yp(1) - y(2)
    r(2) = mass*yp(2) + damper_sign*damp*y(2) + stiff*y(1)

    ierr = 0

  end function ResFn

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

end module dae_mod

program main

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod
  use fidas_mod                  ! Fortran interface to IDAS (IDA's API)
  use fnvector_serial_mod
  use fsunmatrix_dense_mod
  use fsunlinsol_dense_mod
  use dae_mod
  use energy_audit_ida_drop_in   ! energy audit

  implicit none

  real(c_double) :: tstart, tend, dtout, tout, tcur(1)
  integer(c_int) :: ierr, nout
  integer :: outstep

  type(N_Vector), pointer :: sunvec_y, sunvec_yp
  type(SUNMatrix), pointer :: sunmat_A
  type(SUNLinearSolver), pointer :: sunlinsol_LS
  type(c_ptr) :: ctx, ida_mem
  type(c_ptr) :: audit  ! energy audit
  logical :: passed     ! energy audit

  real(c_double) :: y(neq), yp(neq)

  tstart = 0.0d0
  tend = 10.0d0
  dtout = 1.0d0
  tcur = tstart
  tout = tstart
  nout = ceiling(tend/dtout)

  ! consistent initial values: at rest, so v' = -k q / m
  y(1) = 1.0d0
  y(2) = 0.0d0
  yp(1) = y(2)
  yp(2) = -(stiff*y(1) + damper_sign*damp*y(2))/mass

  ierr = FSUNContext_Create(SUN_COMM_NULL, ctx)
  sunvec_y => FN_VMake_Serial(neq, y, ctx)
  sunvec_yp => FN_VMake_Serial(neq, yp, ctx)
  sunmat_A => FSUNDenseMatrix(neq, neq, ctx)
  sunlinsol_LS => FSUNLinSol_Dense(sunvec_y, sunmat_A, ctx)
  if (.not. (associated(sunvec_y) .and. associated(sunvec_yp) .and. associated(sunmat_A) &
             .and. associated(sunlinsol_LS))) then
    print *, 'ERROR: could not create the vectors, matrix or linear solver'
    stop 1
  end if

  ida_mem = FIDACreate(ctx)
  if (.not. c_associated(ida_mem)) then
    print *, 'ERROR: ida_mem = NULL'
    stop 1
  end if
  ierr = FIDAInit(ida_mem, c_funloc(ResFn), tstart, sunvec_y, sunvec_yp)
  if (ierr == 0) ierr = FIDASStolerances(ida_mem, 1.0d-10, 1.0d-12)
  if (ierr == 0) ierr = FIDASetLinearSolver(ida_mem, sunlinsol_LS, sunmat_A)
  if (ierr /= 0) then
    print *, 'Error in the IDA setup, ierr = ', ierr, '; halting'
    stop 1
  end if

  audit = ea_ida_audit_create(1, c_funloc(KineticEnergy), c_funloc(PotentialEnergy), & ! energy audit
                              c_funloc(DamperPower), c_null_ptr, 1.0d-3)               ! energy audit

  print '(a)', 'Damped oscillator, IDA with the dense linear solver'
  print '(a)', '           t                       q                       v'
  print '(3(1x,es24.16e3))', tcur, y(1), y(2)
  do outstep = 1, nout
    tout = min(tout + dtout, tend)
    ierr = ea_ida_audit(audit, ida_mem, tout, tcur, sunvec_y, sunvec_yp, IDA_NORMAL) ! energy audit
    if (ierr /= 0) then
      print *, 'Error in FIDASolve, ierr = ', ierr, '; halting'
      stop 1
    end if
    print '(3(1x,es24.16e3))', tcur, y(1), y(2)
  end do

  call IDAStats(ida_mem)
  call ea_ida_audit_print_summary_stdout(audit) ! energy audit
  passed = ea_ida_audit_passed(audit)           ! energy audit
  call ea_ida_audit_free(audit)                 ! energy audit

  call FIDAFree(ida_mem)
  ierr = FSUNLinSolFree(sunlinsol_LS)
  call FSUNMatDestroy(sunmat_A)
  call FN_VDestroy(sunvec_y)
  call FN_VDestroy(sunvec_yp)
  ierr = FSUNContext_Free(ctx)
  if (.not. passed) stop 1, quiet=.true. ! energy audit

contains

  ! IDA's statistics, every counter, on standard output.
  subroutine IDAStats(mem)
    type(c_ptr), intent(in) :: mem
    integer(c_long) :: nsteps(1), nrevals(1), nlinsetups(1), netfails(1), nniters(1), nncfails(1), njevals(1)
    integer(c_int) :: klast(1)
    real(c_double) :: hlast(1), tnow(1)
    integer(c_int) :: ierr
    ierr = FIDAGetNumSteps(mem, nsteps)
    ierr = ior(ierr, FIDAGetNumResEvals(mem, nrevals))
    ierr = ior(ierr, FIDAGetNumLinSolvSetups(mem, nlinsetups))
    ierr = ior(ierr, FIDAGetNumErrTestFails(mem, netfails))
    ierr = ior(ierr, FIDAGetNumNonlinSolvIters(mem, nniters))
    ierr = ior(ierr, FIDAGetNumNonlinSolvConvFails(mem, nncfails))
    ierr = ior(ierr, FIDAGetNumJacEvals(mem, njevals))
    ierr = ior(ierr, FIDAGetLastOrder(mem, klast))
    ierr = ior(ierr, FIDAGetLastStep(mem, hlast))
    ierr = ior(ierr, FIDAGetCurrentTime(mem, tnow))
    if (ierr /= 0) then
      print *, 'Error in IDA''s statistics; halting'
      stop 1
    end if
    print '(a)', ' General Solver Stats:'
    print '(4x,a,i9)', 'Total internal steps taken =', nsteps
    print '(4x,a,i9)', 'Total residual calls       =', nrevals
    print '(4x,a,i9)', 'Num lin solver setup calls =', nlinsetups
    print '(4x,a,i9)', 'Num error test failures    =', netfails
    print '(4x,a,i9)', 'Num nonlinear solver iters =', nniters
    print '(4x,a,i9)', 'Num nonlinear solver fails =', nncfails
    print '(4x,a,i9)', 'Num Jacobian evaluations   =', njevals
    print '(4x,a,i9)', 'Last method order          =', klast
    print '(4x,a,es24.16e3)', 'Last internal step size    =', hlast
    print '(4x,a,es24.16e3)', 'Current internal time      =', tnow
  end subroutine IDAStats

end program main
