/** Rules for the signed-in user's own account: info, profile edit, password change. */
import { ErrorCode } from '../../contract/errors.ts';
import type { ProfileBody, ResetPasswordBody, UserInfo } from '../../contract/user.ts';
import { REAL_NAME_MAX } from '../../contract/validation.ts';
import type { AuthUser } from '../../core.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, meetsPasswordPolicy } from '../../lib/password.ts';
import type { AccountService, UserRow } from '../auth/account-service.ts';

export function toUserInfo(user: UserRow): UserInfo {
  return {
    userId: user.id,
    username: user.username,
    realName: user.realName,
    phoneNumber: user.phoneNumber,
    email: user.email,
    avatar: user.avatar,
    role: user.role,
    createTime: user.createTime,
  };
}

/** Trimmed text, with empty meaning "none"; undefined (field left out) keeps the stored value. */
function optionalText(value: string | null | undefined, current: string | null): string | null {
  if (value === undefined) return current;
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Only own uploads or web addresses: the value ends up in an <img src>. */
const AVATAR_PATTERN = /^(\/api\/yt\/oss\/files\/[a-f0-9]{64}\.(png|jpg|jpeg|gif)|https?:\/\/\S+)$/;

export class UserService {
  constructor(private readonly accounts: AccountService) {}

  info(caller: AuthUser): UserInfo {
    return toUserInfo(this.current(caller));
  }

  updateProfile(caller: AuthUser, body: ProfileBody): UserInfo {
    if (body.id !== caller.id) throw new AppError(ErrorCode.PERMISSION_DENIED, 'error.permissionDenied');
    const user = this.current(caller);
    const realName = body.realName.trim();
    if (realName === '' || realName.length > REAL_NAME_MAX) {
      throw fieldError('body.realName', 'error.user.realNameRequired', 'must be 1-32 characters after trimming');
    }
    const avatar = optionalText(body.avatar, user.avatar);
    if (avatar !== null && !AVATAR_PATTERN.test(avatar)) {
      throw fieldError('body.avatar', 'error.validation', 'must be an uploaded image or an http(s) address');
    }
    const updated = this.accounts.updateProfile(user.id, {
      realName,
      phoneNumber: optionalText(body.phoneNumber, user.phoneNumber),
      email: optionalText(body.email, user.email),
      avatar,
    });
    return toUserInfo(updated ?? user);
  }

  /**
   * Checks the current password (throttled like sign-in, per account and address `ip`), then the
   * policy. Success ends every session of the user (this one included): the console signs in again
   * with the new password.
   */
  async changePassword(caller: AuthUser, body: ResetPasswordBody, ip: string): Promise<void> {
    if (body.userId !== caller.id) throw new AppError(ErrorCode.PERMISSION_DENIED, 'error.permissionDenied');
    const user = this.current(caller);
    if (!(await this.accounts.checkPassword(user, body.password, ip))) {
      throw new AppError(ErrorCode.INVALID_ARGUMENTS, 'error.password.wrongCurrent', {}, {
        details: [{ field: 'body.password', key: 'error.password.wrongCurrent', message: 'does not match the current password' }],
      });
    }
    if (!meetsPasswordPolicy(body.resetPassword)) {
      throw new AppError(ErrorCode.PASSWORD_POLICY, 'error.password.policy', {}, {
        details: [{ field: 'body.resetPassword', key: 'error.password.policy', message: 'does not meet the password policy' }],
      });
    }
    if (body.resetPassword === body.password) {
      throw new AppError(ErrorCode.PASSWORD_POLICY, 'error.password.sameAsOld', {}, {
        details: [{ field: 'body.resetPassword', key: 'error.password.sameAsOld', message: 'equals the current password' }],
      });
    }
    const hash = await hashPassword(body.resetPassword);
    this.accounts.changePassword(user.id, hash);
  }

  private current(caller: AuthUser): UserRow {
    const user = this.accounts.findById(caller.id);
    // The access hook resolved this user a moment ago; gone now means deleted in between.
    if (!user) throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.tokenInvalid');
    return user;
  }
}

function fieldError(field: string, key: 'error.user.realNameRequired' | 'error.validation', message: string): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, key, {}, { status: 400, details: [{ field, key, message }] });
}
