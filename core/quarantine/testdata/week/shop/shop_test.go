package shop

import "testing"

func check(t *testing.T, key string) {
	t.Helper()
	if Fails(key) {
		t.Fatalf("%s flaked (planted)", key)
	}
}

func TestCheckout(t *testing.T) { check(t, "checkout") }
func TestLogin(t *testing.T)    { check(t, "login") }
func TestSearch(t *testing.T)   { check(t, "search") }
func TestPayment(t *testing.T)  { check(t, "payment") }
func TestShipping(t *testing.T) { check(t, "shipping") }
func TestEmail(t *testing.T)    { check(t, "email") }
func TestAuth(t *testing.T)     { check(t, "auth") }
func TestReport(t *testing.T)   { check(t, "report") }
func TestUpload(t *testing.T)   { check(t, "upload") }
func TestCache(t *testing.T)    { check(t, "cache") }
func TestQueue(t *testing.T)    { check(t, "queue") }
