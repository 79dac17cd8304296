import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiTag, AppError, ErrorCode } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { PartnerPortalApiConfig } from '../partner-portal-api.config';
import { EmailField } from '../portal-fields';
import { decoyHash, hashPassword, verifyPassword } from './passwords';
import { clearSessionCookie, CSRF_COOKIE, SESSION_COOKIE, setCsrfCookie, setSessionCookie } from './portal-cookies';
import { ApiSession, CsrfGuard, CurrentUser, SESSION_SCHEME, SessionGuard } from './portal.guards';
import { SessionsService, type PortalUser } from './sessions.service';
import { PortalCounters } from './portal-counters';
import { CsrfView, MeView, SessionUserView } from '../portal-views.dto';

class SignUpBody {
  @EmailField()
  email!: string;

  @ApiProperty({ minLength: 10, maxLength: 256 })
  @MaxLength(256, { message: 'password must be at most 256 characters' })
  @MinLength(10, { message: 'password must be at least 10 characters' })
  @IsString({ message: 'password is required (a string)' })
  password!: string;
}

class SignInBody {
  @ApiProperty({ example: 'dev@acme.example' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  @IsString({ message: 'email is required (a string)' })
  email!: string;

  @ApiProperty()
  @MaxLength(256, { message: 'password must be at most 256 characters' })
  @IsString({ message: 'password is required (a string)' })
  password!: string;
}

const BAD_CREDENTIALS = 'Email or password is incorrect';

/** Accounts and sessions of the portal (`/portal/api/auth/*`, `/portal/api/me`). */
@ApiTags(ApiTag.portal)
@UseGuards(CsrfGuard)
@Controller('portal/api')
export class AuthController {
  private decoy?: Promise<string>;

  constructor(
    private readonly db: PrismaClient,
    private readonly sessions: SessionsService,
    private readonly config: PartnerPortalApiConfig,
    private readonly throttle: PortalCounters,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get('auth/csrf')
  @ApiOperation({ summary: 'Sets the portal_csrf cookie (kept if present) and answers its value, to echo in x-csrf-token' })
  @ApiOkResponse({ type: CsrfView })
  csrf(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const existing = req.cookies?.[CSRF_COOKIE];
    const token = existing && /^[A-Za-z0-9_-]{32,64}$/.test(existing) ? existing : randomBytes(24).toString('base64url');
    setCsrfCookie(req, reply, token);
    return { csrfToken: token };
  }

  @Post('auth/sign-up')
  @HttpCode(201)
  @ApiOperation({ summary: 'Creates an account and signs it in' })
  @ApiCreatedResponse({ type: SessionUserView })
  async signUp(@Body() body: SignUpBody, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const email = body.email.trim().toLowerCase();
    const passwordHash = await hashPassword(body.password, this.config.SCRYPT_LOG_N);
    let user;
    try {
      user = await this.db.user.create({ data: { email, passwordHash } });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new AppError(409, ErrorCode.Conflict, 'An account with this email already exists; sign in instead');
      }
      throw error;
    }
    await this.startSession(req, reply, user.id);
    this.logger.info({ userId: user.id }, 'portal account created');
    return { user: { id: user.id, email: user.email } };
  }

  @Post('auth/sign-in')
  @HttpCode(200)
  @ApiOperation({ summary: 'Signs in (a new session replaces the browser’s previous one); repeated failures answer 429' })
  @ApiOkResponse({ type: SessionUserView })
  async signIn(@Body() body: SignInBody, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const email = body.email.trim().toLowerCase();
    const counters = [
      { key: `portal:sign-in:email:${email}`, limit: this.config.SIGN_IN_FAILURE_LIMIT },
      { key: `portal:sign-in:ip:${req.ip}`, limit: this.config.SIGN_IN_FAILURE_LIMIT * 10 },
    ];
    const window = this.config.SIGN_IN_WINDOW_MS;
    const counted = await Promise.all(counters.map((c) => this.throttle.count(c.key, 0, window)));
    const blocked = counted.find((c, i) => c.count >= counters[i].limit);
    if (blocked) {
      const seconds = Math.max(1, Math.ceil(blocked.resetMs / 1000));
      reply.header('retry-after', String(seconds));
      throw new AppError(429, ErrorCode.TooManyRequests, `Too many failed sign-ins; try again in ${seconds} seconds`);
    }
    const user = await this.db.user.findUnique({ where: { email } });
    // An unknown email costs what a wrong password does, so timing tells nothing.
    const ok = await verifyPassword(body.password, user?.passwordHash ?? (await (this.decoy ??= decoyHash(this.config.SCRYPT_LOG_N))));
    if (!user || !ok) {
      await Promise.all(counters.map((c) => this.throttle.count(c.key, 1, window)));
      throw new AppError(401, ErrorCode.Unauthorized, BAD_CREDENTIALS);
    }
    await this.startSession(req, reply, user.id);
    return { user: { id: user.id, email: user.email } };
  }

  @Post('auth/sign-out')
  @HttpCode(204)
  @ApiOperation({ summary: 'Ends the session' })
  // The session is read if there is one: optional (an empty requirement beside the cookie's).
  @ApiSecurity(SESSION_SCHEME)
  @ApiSecurity({})
  async signOut(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.close(req.cookies?.[SESSION_COOKIE]);
    clearSessionCookie(req, reply);
  }

  @Get('me')
  @UseGuards(SessionGuard)
  @ApiSession()
  @ApiOperation({ summary: 'The signed-in user and their organisations' })
  @ApiOkResponse({ type: MeView })
  async me(@CurrentUser() user: PortalUser) {
    const memberships = await this.db.membership.findMany({ where: { userId: user.id }, orderBy: { createdAt: 'asc' } });
    return { user, memberships: memberships.map((m) => ({ orgId: m.orgId, orgName: m.orgName, role: m.role })) };
  }

  private async startSession(req: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
    const token = await this.sessions.open(userId, req.cookies?.[SESSION_COOKIE]);
    setSessionCookie(req, reply, token, this.config.SESSION_TTL_MS);
  }
}
