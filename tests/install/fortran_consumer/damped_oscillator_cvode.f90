! ------------------------------------------------------------------
! A damped oscillator, m q'' + c q' + k q = 0 from q = 1 at rest over
! t = 0 to 10 s, as a CVODE program in Fortran 2003 (BDF, dense linear
! solver) built by a Fortran-only CMake project against an installed
! EnergyAudit. It runs the audit in each of its forms through the
! module energy_audit_drop_in, the parameters reaching the energy
! functions as user_data:
!   Lagrange's (T, V, the damper's power P = -c v^2), with the layout
!     of y = [q, v] given explicitly; passes;
!   the same with the damper's power left out; fails;
!   Hamilton's, over y = [q, p] with p = m v (H, the damper's force
!     Q = -c p/m); passes;
!   the whole state's (E(y), P(y)); passes;
!   a create with 0 coordinates, whose every call returns
!     EA_CVODE_AUDIT_INVALID_ARGUMENT with a message.
! Each solution is checked against the closed form; exits with 1 when
! a check fails.
! ------------------------------------------------------------------

module oscillator_mod

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod

  implicit none

  integer(c_int64_t), parameter :: neq = 2

  ! the oscillator's parameters, the user data of the energy functions
  type, bind(C) :: oscillator
    real(c_double) :: m, c, k
  end type oscillator

  type(oscillator), target :: params = oscillator(1.0d0, 0.4d0, 4.0d0)

  ! .true. when y = [q, p] (Hamilton's variables), else y = [q, v]
  logical :: momentum_state = .false.

contains

  integer(c_int) function RhsFn(tn, sunvec_y, sunvec_f, user_data) result(ierr) bind(C)
    real(c_double), value :: tn
    type(N_Vector) :: sunvec_y, sunvec_f
    type(c_ptr), value :: user_data
    real(c_double), pointer :: y(:), f(:)
    y => FN_VGetArrayPointer(sunvec_y)
    f => FN_VGetArrayPointer(sunvec_f)
    if (momentum_state) then
      f(1) = y(2)/params%m
      f(2) = -params%k*y(1) - params%c*y(2)/params%m
    else
      f(1) = y(2)
      f(2) = -(params%c*y(2) + params%k*y(1))/params%m
    end if
    ierr = 0
  end function RhsFn

  ! Lagrange's form: T(q, v), V(q), P = v^T f of the damper
  real(c_double) function KineticEnergy(q, v, t, user_data) bind(C)
    real(c_double), intent(in) :: q(*), v(*)
    real(c_double), value :: t
    type(c_ptr), value :: user_data
    type(oscillator), pointer :: d
    call c_f_pointer(user_data, d)
    KineticEnergy = 0.5d0*d%m*v(1)**2
  end function KineticEnergy
  real(c_double) function PotentialEnergy(q, t, user_data) bind(C)
    real(c_double), intent(in) :: q(*)
    real(c_double), value :: t
    type(c_ptr), value :: user_data
    type(oscillator), pointer :: d
    call c_f_pointer(user_data, d)
    PotentialEnergy = 0.5d0*d%k*q(1)**2
  end function PotentialEnergy
  real(c_double) function DamperPower(q, v, t, user_data) bind(C)
    real(c_double), intent(in) :: q(*), v(*)
    real(c_double), value :: t
    type(c_ptr), value :: user_data
    type(oscillator), pointer :: d
    call c_f_pointer(user_data, d)
    DamperPower = -d%c*v(1)**2
  end function DamperPower

  ! Hamilton's form: H(q, p) and the damper's generalized force Q(q, p)
  real(c_double) function Hamiltonian(q, p, t, user_data) bind(C)
    real(c_double), intent(in) :: q(*), p(*)
    real(c_double), value :: t
    type(c_ptr), value :: user_data
    type(oscillator), pointer :: d
    call c_f_pointer(user_data, d)
    Hamiltonian = 0.5d0*p(1)**2/d%m + 0.5d0*d%k*q(1)**2
  end function Hamiltonian
  subroutine DamperForce(q, p, t, forces, user_data) bind(C)
    real(c_double), intent(in) :: q(*), p(*)
    real(c_double), value :: t
    real(c_double), intent(out) :: forces(*)
    type(c_ptr), value :: user_data
    type(oscillator), pointer :: d
    call c_f_pointer(user_data, d)
    forces(1) = -d%c*p(1)/d%m
  end subroutine DamperForce

  ! The whole state's form: E(y) and the damper's power P(y), y = [q, v]
  real(c_double) function StateEnergy(y, t, user_data) bind(C)
    real(c_double), intent(in) :: y(*)
    real(c_double), value :: t
    type(c_ptr), value :: user_data
    type(oscillator), pointer :: d
    call c_f_pointer(user_data, d)
    StateEnergy = 0.5d0*d%m*y(2)**2 + 0.5d0*d%k*y(1)**2
  end function StateEnergy
  real(c_double) function StatePower(y, t, user_data) bind(C)
    real(c_double), intent(in) :: y(*)
    real(c_double), value :: t
    type(c_ptr), value :: user_data
    type(oscillator), pointer :: d
    call c_f_pointer(user_data, d)
    StatePower = -d%c*y(2)**2
  end function StatePower

  ! q(t) of the closed form
  real(c_double) function ExactPosition(t)
    real(c_double), intent(in) :: t
    real(c_double) :: gamma, wd
    gamma = params%c/(2.0d0*params%m)
    wd = sqrt(params%k/params%m - gamma**2)
    ExactPosition = exp(-gamma*t)*(cos(wd*t) + gamma/wd*sin(wd*t))
  end function ExactPosition

end module oscillator_mod

program main

  use, intrinsic :: iso_c_binding
  use fsundials_core_mod
  use fcvodes_mod
  use fnvector_serial_mod
  use fsunmatrix_dense_mod
  use fsunlinsol_dense_mod
  use oscillator_mod
  use energy_audit_drop_in

  implicit none

  integer :: failures
  type(c_ptr) :: audit
  real(c_double) :: q_end
  integer(c_int) :: flag

  failures = 0

  print '(a)', "Lagrange's form, the damper's power given"
  audit = ea_cvode_audit_create(1, c_funloc(KineticEnergy), c_funloc(PotentialEnergy), &
                                c_funloc(DamperPower), c_loc(params), 1.0d-3)
  call check(ea_cvode_audit_set_layout(audit, 2_c_long, 0_c_long, 1_c_long, 1_c_long) &
             == EA_CVODE_AUDIT_SUCCESS, 'the layout y = [q, v] is taken')
  momentum_state = .false.
  call solve(audit, q_end, flag)
  call check(flag == 0 .and. abs(q_end - ExactPosition(10.0d0)) <= 1.0d-6, &
             'the solution is the closed form''s')
  call check(ea_cvode_audit_passed(audit) .and. ea_cvode_audit_verdict(audit) == 'pass' &
             .and. ea_cvode_audit_relative_drift(audit) <= 1.0d-6 .and. ea_cvode_audit_steps(audit) > 0, &
             'the audit passes, delta_C within 1e-6')
  call check(ea_cvode_audit_last_error(audit) == '', 'no error')
  call ea_cvode_audit_free(audit)

  print '(a)', "Lagrange's form, the damper's power left out"
  audit = ea_cvode_audit_create(1, c_funloc(KineticEnergy), c_funloc(PotentialEnergy), &
                                c_null_funptr, c_loc(params), 1.0d-3)
  call solve(audit, q_end, flag)
  call check(.not. ea_cvode_audit_passed(audit) .and. ea_cvode_audit_verdict(audit) == 'fail' &
             .and. ea_cvode_audit_relative_drift(audit) > 0.5d0, 'the audit fails, delta_C above 0.5')
  call ea_cvode_audit_free(audit)

  print '(a)', "Hamilton's form, y = [q, p]"
  audit = ea_cvode_audit_create_hamiltonian(1, c_funloc(Hamiltonian), c_null_funptr, c_funloc(DamperForce), &
                                            c_loc(params), 1.0d-3)
  momentum_state = .true.
  call solve(audit, q_end, flag)
  call check(flag == 0 .and. abs(q_end - ExactPosition(10.0d0)) <= 1.0d-6, &
             'the solution is the closed form''s')
  call check(ea_cvode_audit_passed(audit) .and. ea_cvode_audit_relative_drift(audit) <= 1.0d-6, &
             'the audit in Hamilton''s form passes')
  call ea_cvode_audit_free(audit)

  print '(a)', "The whole state's form"
  audit = ea_cvode_audit_create_whole_state(c_funloc(StateEnergy), c_null_funptr, c_funloc(StatePower), &
                                            c_loc(params), 1.0d-3)
  momentum_state = .false.
  call solve(audit, q_end, flag)
  call check(ea_cvode_audit_passed(audit) .and. ea_cvode_audit_relative_drift(audit) <= 1.0d-6, &
             'the audit in the whole state''s form passes')
  call ea_cvode_audit_free(audit)

  print '(a)', 'A create with 0 coordinates'
  audit = ea_cvode_audit_create(0, c_funloc(KineticEnergy), c_funloc(PotentialEnergy), c_null_funptr, &
                                c_loc(params), 1.0d-3)
  call solve(audit, q_end, flag)
  call check(flag == EA_CVODE_AUDIT_INVALID_ARGUMENT, &
             'the evolve call returns EA_CVODE_AUDIT_INVALID_ARGUMENT')
  call check(len(ea_cvode_audit_last_error(audit)) > 0 .and. ea_cvode_audit_verdict(audit) /= 'pass', &
             'with a message: '//ea_cvode_audit_last_error(audit))
  call ea_cvode_audit_free(audit)

  if (failures /= 0) stop 1

contains

  ! Prints a check; counts it when it failed.
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) then
      print '(a,a)', 'ok  : ', what
    else
      print '(a,a)', 'FAIL: ', what
      failures = failures + 1
    end if
  end subroutine check

  ! One run from q = 1 at rest (v = p = 0) to t = 10 s through the audit, printing the summary.
  ! q_end: q at t = 10 s; flag: the first nonzero flag of an evolve call, else 0.
  subroutine solve(audit, q_end, flag)
    type(c_ptr), intent(in) :: audit
    real(c_double), intent(out) :: q_end
    integer(c_int), intent(out) :: flag
    type(c_ptr) :: ctx, cvode_mem
    type(N_Vector), pointer :: sunvec_y
    type(SUNMatrix), pointer :: sunmat_A
    type(SUNLinearSolver), pointer :: sunlinsol_LS
    real(c_double) :: yvec(neq), tcur(1), tout
    integer(c_int) :: ierr
    integer :: outstep

    yvec = [1.0d0, 0.0d0]
    ierr = FSUNContext_Create(SUN_COMM_NULL, ctx)
    sunvec_y => FN_VMake_Serial(neq, yvec, ctx)
    sunmat_A => FSUNDenseMatrix(neq, neq, ctx)
    sunlinsol_LS => FSUNLinSol_Dense(sunvec_y, sunmat_A, ctx)
    cvode_mem = FCVodeCreate(CV_BDF, ctx)
    ierr = FCVodeInit(cvode_mem, c_funloc(RhsFn), 0.0d0, sunvec_y)
    ierr = FCVodeSStolerances(cvode_mem, 1.0d-8, 1.0d-10)
    ierr = FCVodeSetLinearSolver(cvode_mem, sunlinsol_LS, sunmat_A)

    flag = 0
    tout = 0.0d0
    do outstep = 1, 10
      tout = tout + 1.0d0
      ierr = ea_cvode_audit(audit, cvode_mem, tout, sunvec_y, tcur, CV_NORMAL)
      if (ierr /= 0) then
        flag = ierr
        exit
      end if
    end do
    q_end = yvec(1)
    print '(a,f6.2,a,es23.16)', 't = ', tcur(1), ': q = ', q_end
    call ea_cvode_audit_print_summary_stdout(audit)

    call FCVodeFree(cvode_mem)
    ierr = FSUNLinSolFree(sunlinsol_LS)
    call FSUNMatDestroy(sunmat_A)
    call FN_VDestroy(sunvec_y)
    ierr = FSUNContext_Free(ctx)
  end subroutine solve

end program main
