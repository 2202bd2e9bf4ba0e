use strict;
use warnings;
use Test::More tests => 3;
ok(1, 'first');
BAIL_OUT('database went away');
ok(1, 'never');
