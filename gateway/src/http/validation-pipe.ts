import { ValidationPipe } from '@nestjs/common';

/**
 * The gateway's one input gate: unknown fields and wrong types are refused (no implicit
 * conversion), and each property reports its first failure only. Tests build the same pipe.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
  });
}
