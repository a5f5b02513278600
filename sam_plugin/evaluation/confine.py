"""The operating system's own box for a baseline script (Linux): installed by the child
process on itself before the script's first line, so that what the script does is bounded by
the kernel, not only by the language checks of ``sandbox.py``.

- Landlock: the process may write, create, rename or remove files only beneath its box
  directory, executes no file, binds and connects no TCP port (ABI 4) and signals no process
  outside itself (ABI 6). Reading stays open (Python, numpy and the stubs are read).
- seccomp: no ``execve``/``execveat``, no new process (``fork``, ``vfork``, ``clone``
  without ``CLONE_THREAD``; ``clone3`` answers ENOSYS so that threads fall back to
  ``clone``), no socket, no ptrace or other process's memory, no signal to another process, no
  mount, namespace, io_uring, BPF, keyring or module call, no terminal input injection, no
  change to a file's mode, owner, attributes or times (Landlock does not cover those), and no
  resource limit raised (the harness sets them before the box).

Only ``ctypes``, ``os`` and the plugin's errors are imported: this module runs in the child
before anything of the script's, and a failure to install a layer is one line
(:class:`Unconfined`), never a half-installed box (the harness stops).
"""

from __future__ import annotations

import ctypes
import os
import platform

from sam_plugin.errors import Unconfined

SYSCALLS = {  # x86_64 numbers; another architecture has no table here (Unconfined)
    "execve": 59, "execveat": 322, "fork": 57, "vfork": 58, "clone": 56, "clone3": 435,
    "socket": 41, "socketpair": 53, "ptrace": 101, "process_vm_readv": 310,
    "process_vm_writev": 311, "kill": 62, "tkill": 200, "tgkill": 234,
    "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297, "pidfd_open": 434,
    "pidfd_send_signal": 424, "pidfd_getfd": 438, "mount": 165, "umount2": 166,
    "pivot_root": 155, "chroot": 161, "unshare": 272, "setns": 308, "bpf": 321,
    "perf_event_open": 298, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "keyctl": 250, "add_key": 248, "request_key": 249,
    "userfaultfd": 323, "kexec_load": 246, "kexec_file_load": 320, "init_module": 175,
    "finit_module": 313, "delete_module": 176, "reboot": 169, "swapon": 167, "swapoff": 168,
    "open_by_handle_at": 304, "name_to_handle_at": 303, "mknod": 133, "mknodat": 259,
    "sethostname": 170, "setdomainname": 171, "syslog": 103, "acct": 163,
    "settimeofday": 164, "clock_settime": 227, "adjtimex": 159, "clock_adjtime": 305,
    "iopl": 172, "ioperm": 173, "quotactl": 179, "fanotify_init": 300, "open_tree": 428,
    "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "mount_setattr": 442, "chmod": 90, "fchmod": 91, "fchmodat": 268, "fchmodat2": 452,
    "chown": 92, "fchown": 93, "lchown": 94, "fchownat": 260, "setxattr": 188,
    "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197, "lremovexattr": 198,
    "fremovexattr": 199, "setxattrat": 463, "removexattrat": 466, "utime": 132, "utimes": 235,
    "utimensat": 280, "futimesat": 261, "setrlimit": 160, "prlimit64": 302,
    "setpriority": 141, "sched_setparam": 142, "sched_setscheduler": 144,
    "sched_setattr": 314, "ioprio_set": 251, "migrate_pages": 256, "move_pages": 279,
    "process_madvise": 440, "process_mrelease": 448, "ioctl": 16, "landlock_create_ruleset": 444,
    "landlock_add_rule": 445, "landlock_restrict_self": 446, "seccomp": 317,
}
# refused outright (EPERM); clone, clone3, ioctl, tgkill and prlimit64 are judged apart
DENIED = ("execve", "execveat", "fork", "vfork", "socket", "socketpair", "ptrace",
          "process_vm_readv", "process_vm_writev", "kill", "tkill", "rt_sigqueueinfo",
          "rt_tgsigqueueinfo", "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "mount",
          "umount2", "pivot_root", "chroot", "unshare", "setns", "bpf", "perf_event_open",
          "io_uring_setup", "io_uring_enter", "io_uring_register", "keyctl", "add_key",
          "request_key", "userfaultfd", "kexec_load", "kexec_file_load", "init_module",
          "finit_module", "delete_module", "reboot", "swapon", "swapoff", "open_by_handle_at",
          "name_to_handle_at", "mknod", "mknodat", "sethostname", "setdomainname", "syslog",
          "acct", "settimeofday", "clock_settime", "adjtimex", "clock_adjtime", "iopl",
          "ioperm", "quotactl", "fanotify_init", "open_tree", "move_mount", "fsopen",
          "fsconfig", "fsmount", "fspick", "mount_setattr",
          # Landlock does not cover a file's metadata: mode, owner, attributes, times
          "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
          "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
          "setxattrat", "removexattrat", "utime", "utimes", "utimensat", "futimesat",
          # limits are set before the box (root could raise them again); no other process's
          # scheduling or memory
          "setrlimit", "setpriority", "sched_setparam", "sched_setscheduler", "sched_setattr",
          "ioprio_set", "migrate_pages", "move_pages", "process_madvise", "process_mrelease")

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
CLONE_THREAD = 0x00010000
TIOCSTI, TIOCLINUX = 0x5412, 0x541C
EPERM, ENOSYS = 1, 38
SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_ERRNO, SECCOMP_RET_ALLOW = 0x80000000, 0x00050000, \
    0x7FFF0000
BPF_LD_W_ABS, BPF_JEQ, BPF_JGE, BPF_JSET, BPF_RET = 0x20, 0x15, 0x35, 0x45, 0x06
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC = 1, 1
# offsets in struct seccomp_data: nr, arch, then args[6] of 8 bytes (little endian)
NR, ARCH, ARG0_LOW, ARG0_HIGH, ARG1_LOW, ARG2_LOW, ARG2_HIGH = 0, 4, 16, 20, 24, 32, 36

# Landlock access rights (uapi/linux/landlock.h)
FS_EXECUTE, FS_WRITE_FILE = 1 << 0, 1 << 1
FS_REMOVE_DIR, FS_REMOVE_FILE, FS_MAKE_CHAR, FS_MAKE_DIR, FS_MAKE_REG, FS_MAKE_SOCK, \
    FS_MAKE_FIFO, FS_MAKE_BLOCK, FS_MAKE_SYM = (1 << n for n in range(4, 13))
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1, 2
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1, 2
LANDLOCK_CREATE_RULESET_VERSION, LANDLOCK_RULE_PATH_BENEATH = 1, 1
O_PATH = 0o10000000


def confine(box: str) -> None:
    """Box this process: writes only beneath ``box``, no new process, no socket. Raises
    :class:`Unconfined` (nothing of the script may run then)."""
    if platform.machine() not in ("x86_64", "AMD64"):
        raise Unconfined(f"no seccomp table for the {platform.machine()} architecture")
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise Unconfined(f"prctl(NO_NEW_PRIVS): {_errno()}")
    _landlock(libc, box)
    _seccomp(libc)


def _errno() -> str:
    return os.strerror(ctypes.get_errno())


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi(libc: ctypes.CDLL) -> int:
    """The Landlock ABI version this kernel grants (0: none)."""
    version = libc.syscall(SYSCALLS["landlock_create_ruleset"], None, 0,
                           LANDLOCK_CREATE_RULESET_VERSION)
    return max(0, int(version))


def _landlock(libc: ctypes.CDLL, box: str) -> None:
    abi = landlock_abi(libc)
    if abi < 1:
        raise Unconfined(f"Landlock is not enabled in this kernel ({_errno()})")
    inside = FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_DIR | FS_MAKE_REG \
        | (FS_REFER if abi >= 2 else 0) | (FS_TRUNCATE if abi >= 3 else 0)
    handled = inside | FS_EXECUTE | FS_MAKE_CHAR | FS_MAKE_SOCK | FS_MAKE_FIFO \
        | FS_MAKE_BLOCK | FS_MAKE_SYM | (FS_IOCTL_DEV if abi >= 5 else 0)
    attr = _RulesetAttr(handled, NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0,
                        SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = int(libc.syscall(SYSCALLS["landlock_create_ruleset"], ctypes.byref(attr), size,
                               0))
    if ruleset < 0:
        raise Unconfined(f"Landlock ruleset: {_errno()}")
    try:
        try:
            where = os.open(box, O_PATH | os.O_CLOEXEC)
        except OSError as error:
            raise Unconfined(f"the box {box}: {error.strerror}") from None
        try:
            rule = _PathBeneath(inside, where)
            if libc.syscall(SYSCALLS["landlock_add_rule"], ruleset,
                            LANDLOCK_RULE_PATH_BENEATH, ctypes.byref(rule), 0) != 0:
                raise Unconfined(f"Landlock rule for the box: {_errno()}")
        finally:
            os.close(where)
        if libc.syscall(SYSCALLS["landlock_restrict_self"], ruleset, 0) != 0:
            raise Unconfined(f"Landlock restrict_self: {_errno()}")
    finally:
        os.close(ruleset)


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(_SockFilter))]


Instruction = tuple[int, int, int, int]


def _load(offset: int) -> Instruction:
    return (BPF_LD_W_ABS, 0, 0, offset)


def _jeq(value: int, jt: int, jf: int) -> Instruction:
    return (BPF_JEQ, jt, jf, value)


def _ret(value: int) -> Instruction:
    return (BPF_RET, 0, 0, value)


def seccomp_program(pid: int) -> list[Instruction]:
    """The filter: a foreign architecture is killed, x32 calls and :data:`DENIED` get EPERM;
    ``clone`` only makes threads; ``clone3`` is ENOSYS; ``tgkill`` signals only ``pid``;
    ``prlimit64`` only reads; ``ioctl`` never injects terminal input."""
    deny = _ret(SECCOMP_RET_ERRNO | EPERM)
    allow = _ret(SECCOMP_RET_ALLOW)
    program = [_load(ARCH), _jeq(AUDIT_ARCH_X86_64, 1, 0), _ret(SECCOMP_RET_KILL_PROCESS),
               _load(NR), (BPF_JGE, 0, 1, X32_SYSCALL_BIT), deny]
    for name in DENIED:
        program += [_jeq(SYSCALLS[name], 0, 1), deny]
    program += [_jeq(SYSCALLS["clone3"], 0, 1), _ret(SECCOMP_RET_ERRNO | ENOSYS)]
    program += [_jeq(SYSCALLS["clone"], 0, 4), _load(ARG0_LOW),
                (BPF_JSET, 0, 1, CLONE_THREAD), allow, deny]
    program += [_jeq(SYSCALLS["tgkill"], 0, 6), _load(ARG0_HIGH), _jeq(0, 0, 3),
                _load(ARG0_LOW), _jeq(pid, 0, 1), allow, deny]
    program += [_jeq(SYSCALLS["prlimit64"], 0, 6), _load(ARG2_LOW), _jeq(0, 0, 3),
                _load(ARG2_HIGH), _jeq(0, 0, 1), allow, deny]  # reads a limit, sets none
    program += [_jeq(SYSCALLS["ioctl"], 0, 5), _load(ARG1_LOW), _jeq(TIOCSTI, 2, 0),
                _jeq(TIOCLINUX, 1, 0), allow, deny]
    return [*program, allow]


def _seccomp(libc: ctypes.CDLL) -> None:
    program = seccomp_program(os.getpid())
    filters = (_SockFilter * len(program))(*(_SockFilter(*op) for op in program))
    fprog = _SockFprog(len(program), filters)
    if libc.syscall(SYSCALLS["seccomp"], SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
                    ctypes.byref(fprog)) != 0:
        raise Unconfined(f"seccomp filter: {_errno()}")
