package runner

import "syscall"

// dieWithParent has the kernel kill the command when flakegate dies, even
// by SIGKILL, so that a killed start leaves no run behind it.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
