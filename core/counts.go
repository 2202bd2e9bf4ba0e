package core

// ParseCount reads "passed/trials" (for a budget: "fails/runs"), such as
// "17/20". Errors name the field and the column of the fault.
func ParseCount(field, s string) (Count, error) { panic("todo") }

// ParseRates reads a comma-separated list of numbers, such as "0.05,0.02".
func ParseRates(field, s string) ([]float64, error) { panic("todo") }
