package badbuild

func Broken() int { return "x" }
