package core

import "io"

// ReadAA reads a scenario,run,passed CSV in one streaming pass into its
// sufficient statistics. Memory grows with scenarios and runs, not rows.
func ReadAA(r io.Reader) (*AASide, error) { panic("implemented in aa_csv.go") }
