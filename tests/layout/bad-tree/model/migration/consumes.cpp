// Breaks: a migration reads the consumer model.

#include "model/consumer/order_check.hpp"
