#ifndef CPNG_H
#define CPNG_H
#endif
