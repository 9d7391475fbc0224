/**
 * The review example's tools: two explicit tools whose Activities have effects a human wants to check
 * first (an e-mail goes out, a branch is deleted). The Activities record what really happened.
 */
import { IsEmail, IsString } from 'class-validator';
import { Activity, Describe, Service, Tool } from 'ideact';

/** Sends an e-mail (here: appends it to the outbox). */
@Tool({ description: 'Send an e-mail.' })
export class SendEmail {
  @IsEmail()
  @Describe('Recipient address.')
  to!: string;

  @IsString()
  @Describe('Subject line.')
  subject!: string;

  @IsString()
  @Describe('Plain-text body.')
  body!: string;
}

/** Deletes a git branch (here: records its name). */
@Tool({ description: 'Delete a branch of the repository.' })
export class DeleteBranch {
  @IsString()
  @Describe('Branch name, e.g. "release-1.2".')
  name!: string;
}

/** The Activities, and what they did: the e-mails sent and the branches deleted. */
@Service()
export class ReleaseChores {
  /** Every e-mail that really went out. */
  readonly outbox: SendEmail[] = [];
  /** Every branch that was really deleted. */
  readonly deletedBranches: string[] = [];

  /** Runs `sendEmail` Calls. */
  @Activity()
  sendEmail(params: SendEmail): { deliveredTo: string } {
    this.outbox.push({ to: params.to, subject: params.subject, body: params.body });
    return { deliveredTo: params.to };
  }

  /** Runs `deleteBranch` Calls. */
  @Activity()
  deleteBranch(params: DeleteBranch): { deleted: string } {
    this.deletedBranches.push(params.name);
    return { deleted: params.name };
  }
}
